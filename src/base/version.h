// The Ninja release whose behaviour ronin matches. Generators (CMake,
// Meson) gate features on `ninja --version`, so this is the upstream number.
#ifndef RONIN_BASE_VERSION_H_
#define RONIN_BASE_VERSION_H_

#include <string>

namespace ronin {

constexpr const char kNinjaVersion[] = "1.13.2";
// The newest manifest language understood: 1.13.2's plus Ninja 1.14's `$^`
// escape. A manifest's ninja_required_version is checked against it.
constexpr const char kManifestLanguageVersion[] = "1.14";

// Major and minor of a "X.Y[.Z...]" string, as atoi reads them.
void ParseVersion(const char* version, int* major, int* minor);
// True if "X.Y[...]" `version` is at least major.minor.
bool VersionAtLeast(const std::string& version, int major, int minor);

}  // namespace ronin

#endif  // RONIN_BASE_VERSION_H_
