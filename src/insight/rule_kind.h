// What kind of work a command does, for the report's time per kind: a
// generator names its rules per target (CMake's CXX_COMPILER__fmt_Release,
// 45 rules of one command each in fmt), so time per rule says little there,
// and time per kind says where it went.
#ifndef RONIN_INSIGHT_RULE_KIND_H_
#define RONIN_INSIGHT_RULE_KIND_H_

#include <string_view>

namespace ronin {

struct Edge;

// "link" when the rule's name says so (CMake's <LANG>_..._LINKER__..., GN's
// link, alink and solink, Meson's ..._LINKER, ar); "compile" when the rule
// reports the files it read (a depfile or deps) or its name is a compiler's
// (CMake's and Meson's ..._COMPILER..., GN's cc, cxx, objc, objcxx, asm);
// otherwise "custom" (generators, copies, stamps, tests; also a command
// the manifest no longer has, `edge` null).
std::string_view RuleKindOf(const Edge* edge);

}  // namespace ronin

#endif  // RONIN_INSIGHT_RULE_KIND_H_
