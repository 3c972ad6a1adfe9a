import sys
with open(sys.argv[1]) as f:
    version = f.read().strip()
with open(sys.argv[2], "w") as f:
    f.write('const char* version(void) { return "%s"; }\n' % version)
