// `-t msvc` (ninja.exe only, tools.cc; deprecated by Ninja): runs cl.exe,
// optionally with an environment block from a file (whose PATH ninja takes
// too), and with -o writes a depfile of the /showIncludes headers.
//
// As ninja.exe, the command is the rest of the process's own command line
// after " -- ", exactly as typed. ninja.exe filters the output into the same
// string it reads: with -o it prints the output as cl.exe wrote it, and
// when cl.exe printed any line that is not an include line, it never stops
// (each pass appends those lines again). ronin prints the output as cl.exe
// wrote it followed by those lines once: ninja.exe's first pass.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <vector>

#include "base/disk.h"
#include "base/file_io.h"
#include "base/util.h"
#include "exec/capture.h"
#include "scan/msvc_deps.h"
#include "status/terminal.h"
#include "tools/tool_common.h"

namespace ronin {

namespace {

void Usage() {
  printf(
      "usage: ninja -t msvc [options] -- cl.exe /showIncludes /otherArgs\n"
      "options:\n"
      "  -e ENVFILE load environment block from ENVFILE as environment\n"
      "  -o FILE    write output dependency information to FILE.d\n"
      "  -p STRING  localized prefix of msvc's /showIncludes output\n");
}

// The block's PATH entry (name matched ignoring case) into ninja's own
// environment, so that cl.exe is found where the block says.
void TakePath(const std::string& block) {
  for (const char* entry = block.c_str(); *entry; entry += strlen(entry) + 1) {
    if (strncasecmp(entry, "path=", 5) == 0) {
      PutEnvironmentEntry(entry);
      return;
    }
  }
}

// "OBJECT: " and a header per line, spaces escaped (a single '\' is not).
void WriteDepfile(const char* object, const std::vector<std::string>& headers) {
  std::string path = std::string(object) + ".d";
  std::string text = std::string(object) + ": ";
  for (const std::string& header : headers) {
    for (char c : header) {
      if (c == ' ') text.push_back('\\');
      text.push_back(c);
    }
    text.push_back('\n');
  }
  FILE* file = OpenStream(path.c_str(), "wb");  // (Windows: a long or UTF-8 path too)
  if (!file) {
    unlink(object);
    Fatal("opening %s: %s", path.c_str(), LastSystemError().c_str());
  }
  text = TextFileBytes(std::move(text));
  if (fwrite(text.data(), 1, text.size(), file) != text.size()) {
    unlink(object);
    fclose(file);
    unlink(path.c_str());
    Fatal("writing %s", path.c_str());
  }
  fclose(file);
}

}  // namespace

int ToolMsvc(NinjaMain*, const Options*, int argc, char** argv) {
  const char* output_file = nullptr;
  const char* envfile = nullptr;
  std::string deps_prefix;
  const option kLongOptions[] = {{"help", no_argument, nullptr, 'h'}, {nullptr, 0, nullptr, 0}};
  ToolArgs args(argc, argv);
  for (int opt; (opt = args.Next("e:o:p:h", kLongOptions)) != -1;) {
    switch (opt) {
      case 'e':
        envfile = optarg;
        break;
      case 'o':
        output_file = optarg;
        break;
      case 'p':
        deps_prefix = optarg;
        break;
      default:
        Usage();
        return 0;
    }
  }

  std::string environment;
  if (envfile) {
    std::string err;
    if (RealDiskInterface().ReadFile(envfile, &environment, &err) != FileReader::Status::kOkay)
      Fatal("couldn't open %s: %s", envfile, err.c_str());
    TakePath(environment);
  }
  std::string line = RawCommandLine();
  size_t dashes = line.find(" -- ");
  if (dashes == std::string::npos) Fatal("expected command line to end with \" -- command args\"");
  std::string output;
  int exit_code = RunCapturingStdout(line.substr(dashes + 4), environment.empty() ? nullptr : &environment, &output);

  if (output_file) {
    std::vector<std::string> headers;
    std::string others, err;
    if (!FilterShowIncludes(output, deps_prefix, &headers, NormalizeIncludePath, &others, &err))
      Fatal("%s\n", err.c_str());
    output += others;
    WriteDepfile(output_file, headers);
  }
  if (output.empty()) return exit_code;
  // cl.exe's own line ends ("\r\n"), not doubled by stdout's text mode.
  StdoutBytesAsIs bytes_as_is;
  fwrite(output.data(), 1, output.size(), stdout);
  return exit_code;
}

}  // namespace ronin
