"""Test helper for --keep-free-memory: holds N MiB (allocated and touched)
for SECONDS, then appends "start end peak_bytes" (monotonic seconds, its own
peak RSS) to LOG. With FAKE_MEMINFO_DIR set, it takes its N MiB off that
directory's fake MemAvailable (DIR/base bytes minus what helpers hold)
before allocating and gives them back before exiting, so the fake meminfo that ronin reads (RONIN_MEMORY_INFO_DIR) sees
it the way /proc/meminfo would.

usage: memhog.py N SECONDS LOG
"""

import fcntl
import os
import resource
import sys
import time


def adjust_fake_meminfo(delta_bytes):
    """The fake MemAvailable is DIR/base minus what the helpers hold (DIR/held), never below 0."""
    directory = os.environ.get("FAKE_MEMINFO_DIR")
    if not directory:
        return
    with open(os.path.join(directory, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        held_path = os.path.join(directory, "held")
        held = int(open(held_path).read()) if os.path.exists(held_path) else 0
        held -= delta_bytes
        with open(held_path, "w") as f:
            f.write(str(held))
        base = int(open(os.path.join(directory, "base")).read())
        path = os.path.join(directory, "meminfo")
        with open(path + ".tmp", "w") as f:
            f.write("MemTotal: 99999999 kB\nMemAvailable: %d kB\n" % (max(0, base - held) // 1024))
        os.rename(path + ".tmp", path)


def main():
    mib, seconds, log = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    adjust_fake_meminfo(-(mib << 20))
    held = b"\x01" * (mib << 20)  # every page written: resident
    start = time.monotonic()
    time.sleep(seconds)
    end = time.monotonic()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    with open(log, "a") as f:
        f.write("%f %f %d\n" % (start, end, peak))
    del held
    adjust_fake_meminfo(mib << 20)


if __name__ == "__main__":
    main()
