// The Ninja release whose behaviour ronin matches. Generators (CMake,
// Meson) gate features on `ninja --version`, so this is the upstream number.
#ifndef RONIN_BASE_VERSION_H_
#define RONIN_BASE_VERSION_H_

namespace ronin {

constexpr const char kNinjaVersion[] = "1.13.2";

// Major and minor of a "X.Y[.Z...]" string, as atoi reads them.
void ParseVersion(const char* version, int* major, int* minor);

}  // namespace ronin

#endif  // RONIN_BASE_VERSION_H_
