"""Writers for Ninja's on-disk state files, in pure Python (stdlib only).

Used by gen_tree.py to pre-build benchmark trees so that a no-op build of a
generated tree really is a no-op for Ninja 1.13.x:

  * rapidhash()      -- the 64-bit hash Ninja 1.13 stores in .ninja_log v7
                        (rapidhash V1, "fast" + unrolled, little-endian reads),
  * BuildLogWriter   -- .ninja_log v7 text format,
  * DepsLogWriter    -- .ninja_deps v4 binary format (host byte order).

Formats as described in /work/shared/spec/ninja-reference.md sections 3.1-3.2.
Run this file directly to check the hash against the published test vectors.
"""

import array
import struct
import sys

_M64 = (1 << 64) - 1

_SEED = 0xBDD89AA982704029
_K0 = 0x2D358DCCAA6C78A5
_K1 = 0x8BB84B93962EACC9
_K2 = 0x4B33A62ED433D4A3


def _mix(a, b):
    p = a * b
    return (p & _M64) ^ (p >> 64)


# The seed only depends on the length, the part before XOR n is constant.
_SEED_BASE = _SEED ^ _mix(_SEED ^ _K0, _K1)


def rapidhash(data):
    """rapidhash V1 of `data` (bytes) with Ninja's default seed."""
    n = len(data)
    seed = _SEED_BASE ^ n
    if n <= 16:
        if n >= 4:
            r32 = lambda o: int.from_bytes(data[o:o + 4], "little")
            a = (r32(0) << 32) | r32(n - 4)
            d = (n & 24) >> (n >> 3)
            b = (r32(d) << 32) | r32(n - 4 - d)
        elif n > 0:
            a = (data[0] << 56) | (data[n >> 1] << 32) | data[n - 1]
            b = 0
        else:
            a = b = 0
    else:
        i = n
        p = 0
        if i > 48:
            # Unpack all full 48-byte blocks at once: 6 little-endian u64 each.
            nblocks = i // 48
            words = struct.unpack_from("<%dQ" % (nblocks * 6), data, 0)
            s1 = s2 = seed
            k0, k1, k2 = _K0, _K1, _K2
            for j in range(0, nblocks * 6, 6):
                x = (words[j] ^ k0) * (words[j + 1] ^ seed)
                seed = (x & _M64) ^ (x >> 64)
                x = (words[j + 2] ^ k1) * (words[j + 3] ^ s1)
                s1 = (x & _M64) ^ (x >> 64)
                x = (words[j + 4] ^ k2) * (words[j + 5] ^ s2)
                s2 = (x & _M64) ^ (x >> 64)
            p = nblocks * 48
            i -= p
            seed ^= s1 ^ s2
        r64 = lambda o: int.from_bytes(data[o:o + 8], "little")
        if i > 16:
            seed = _mix(r64(p) ^ _K2, r64(p + 8) ^ seed ^ _K1)
            if i > 32:
                seed = _mix(r64(p + 16) ^ _K2, r64(p + 24) ^ seed)
        a = r64(p + i - 16)
        b = r64(p + i - 8)
    a ^= _K1
    b ^= seed
    prod = a * b
    a, b = prod & _M64, prod >> 64
    return _mix(a ^ _K0 ^ n, b ^ _K1)


def command_hash(command, rspfile_content=""):
    """The hash Ninja logs for an edge: command [+ ';rspfile=' + content]."""
    s = command
    if rspfile_content:
        s = s + ";rspfile=" + rspfile_content
    return rapidhash(s.encode())


class BuildLogWriter:
    """Writes a `.ninja_log` v7: `start\\tend\\tmtime\\tpath\\thash-hex`."""

    def __init__(self, path):
        self.f = open(path, "w", encoding="utf-8", newline="\n")
        self.f.write("# ninja log v7\n")
        self.n = 0

    def add(self, output, mtime_ns, cmd_hash, start_ms=0, end_ms=1):
        self.f.write("%d\t%d\t%d\t%s\t%x\n" % (start_ms, end_ms, mtime_ns,
                                              output, cmd_hash))
        self.n += 1

    def close(self):
        self.f.close()


class DepsLogWriter:
    """Writes a `.ninja_deps` v4 (host byte order, like Ninja on this host).

    Path records are emitted on first use, as Ninja's writer does; ids are
    dense from 0 in file order."""

    def __init__(self, path):
        self.f = open(path, "wb")
        self.f.write(b"# ninjadeps\n" + struct.pack("=i", 4))
        self.ids = {}
        self.records = 0
        self.entries = 0
        self._buf = []
        self._buflen = 0

    def _put(self, b):
        self._buf.append(b)
        self._buflen += len(b)
        if self._buflen > (1 << 22):
            self._flush()

    def _flush(self):
        self.f.write(b"".join(self._buf))
        self._buf = []
        self._buflen = 0

    def node_id(self, path):
        i = self.ids.get(path)
        if i is not None:
            return i
        i = len(self.ids)
        b = path.encode()
        pad = (4 - len(b) % 4) % 4
        size = len(b) + pad + 4
        self._put(struct.pack("=I", size) + b + b"\0" * pad +
                  struct.pack("=I", (~i) & 0xFFFFFFFF))
        self.ids[path] = i
        return i

    def add(self, output, mtime_ns, deps):
        """Record `deps` (list of paths) for `output` stat'ed at mtime_ns."""
        out_id = self.node_id(output)
        dep_ids = array.array("i", [self.node_id(d) for d in deps])
        size = 12 + 4 * len(dep_ids)
        assert size <= 524287, "deps record too large"
        m = mtime_ns & 0xFFFFFFFFFFFFFFFF
        self._put(struct.pack("=IiII", size | 0x80000000, out_id,
                              m & 0xFFFFFFFF, m >> 32) + dep_ids.tobytes())
        self.records += 1
        self.entries += len(dep_ids)

    def add_ids(self, out_id, mtime_ns, dep_ids_bytes, count):
        """Fast path: dep ids already packed (native int32 bytes)."""
        size = 12 + 4 * count
        assert size <= 524287, "deps record too large"
        m = mtime_ns & 0xFFFFFFFFFFFFFFFF
        self._put(struct.pack("=IiII", size | 0x80000000, out_id,
                              m & 0xFFFFFFFF, m >> 32) + dep_ids_bytes)
        self.records += 1
        self.entries += count

    def close(self):
        self._flush()
        self.f.close()


_VECTORS = [
    (b"", 0x5a6ef77074ebc84b),
    (b"a", 0xc11328477bc0f5d1),
    (b"echo a > a", 0xe3dc3bc232e8843a),
    (b"echo b > b", 0xdef20147dba11621),
    (b"gcc -MD -MF a.o.d -c a.c -o a.o", 0xa4e9afbeb13d95ec),
]
_REPEAT = [(3, 0xc0e3ae94005e6f0d), (4, 0xa558dc93d085ce36),
           (8, 0xd76d2b531eee3341), (16, 0xfcc8fa4e2771d2ef),
           (17, 0xc4e6c07ce8d909f3), (32, 0x51defeab0abd9656),
           (33, 0x5ad6a821e5baa639), (48, 0x0fbf74f083d4e589),
           (49, 0x53891744573ecfd7), (95, 0x8fbfb349570845f8),
           (96, 0xa6f7394a929a4119), (97, 0xa2ada58b0ee1f084),
           (112, 0x4876198d493ad5c5), (144, 0xe345543a55f08e53),
           (200, 0x8279d2e0a99de6f0)]


def self_test():
    pattern = b"0123456789abcdef" * 20
    cases = list(_VECTORS) + [(pattern[:n], h) for n, h in _REPEAT]
    bad = 0
    for data, want in cases:
        got = rapidhash(data)
        if got != want:
            print("FAIL len=%d %r: got %x want %x" % (len(data), data[:20], got, want))
            bad += 1
    print("rapidhash: %d/%d vectors OK" % (len(cases) - bad, len(cases)))
    return bad == 0


if __name__ == "__main__":
    sys.exit(0 if self_test() else 1)
