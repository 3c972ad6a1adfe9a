// The report's pictures, as inline SVG: the timeline of job slots with the
// critical path drawn over it, and parallelism over time. Sized for a page:
// a command too short to see is not drawn alone but folded, with its
// neighbours on the same row, into one grey run, so a 50,000-command build
// gives a picture of bounded size.
#ifndef RONIN_INSIGHT_REPORT_SVG_H_
#define RONIN_INSIGHT_REPORT_SVG_H_

#include <string>

namespace ronin {

struct BuildReport;

// At most this many commands get a bar (and a hover title) of their own.
constexpr size_t kMaxDrawnBars = 4000;

void AppendTimelineSvg(const BuildReport& report, std::string* html);
void AppendParallelismSvg(const BuildReport& report, std::string* html);

}  // namespace ronin

#endif  // RONIN_INSIGHT_REPORT_SVG_H_
