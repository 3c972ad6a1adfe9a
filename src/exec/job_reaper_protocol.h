// What ninja tells its job reaper (exec/job_reaper.h), on both platforms:
// a stream of events, each a Header; an add is followed by `payload` bytes
// of file records: int64 mtime, uint32 length (| kAlways), the path's bytes.
// The POSIX reaper reads them in a forked child with async-signal-safe code
// only; the Windows one is ninja.exe started again, which may use anything.
#ifndef RONIN_EXEC_JOB_REAPER_PROTOCOL_H_
#define RONIN_EXEC_JOB_REAPER_PROTOCOL_H_

#include <cstdint>
#include <string>

#include "exec/job_reaper.h"

namespace ronin {
namespace reaper_protocol {

struct Header {
  int32_t id;
  int32_t kind;  // kAdd or kRemove, | kLonePid for a console job's pid
  uint32_t payload;
};

constexpr int32_t kAdd = 1;
constexpr int32_t kRemove = 2;
constexpr int32_t kLonePid = 4;
constexpr int32_t kLetGoOfLock = 8;  // answered with one byte once done
constexpr uint32_t kAlways = 1u << 31;
constexpr size_t kFileRecordHead = 12;  // the mtime and the length

// The events, ready to send.
std::string AddEvent(int32_t id, bool whole_group, const JobFiles& files);
std::string RemoveEvent(int32_t id, bool whole_group);
std::string LetGoOfLockEvent();

}  // namespace reaper_protocol
}  // namespace ronin

#endif  // RONIN_EXEC_JOB_REAPER_PROTOCOL_H_
