// A test driver for the HTTP cache store (not installed): the black-box
// tests run it against a real nginx and against misbehaving servers. The
// store is opened once, so a test can change the server between commands
// (kill it, corrupt a blob) and watch what the same store does next.
//
//   cache_store_probe [--timeout-ms=N] URL
//
// Commands on stdin, one per line; one answer line each on stdout:
//   put-blob FILE            stored DIGEST | refused DIGEST
//   get-blob DIGEST OUTFILE  hit | miss
//   put-action KEY FILE      stored | refused
//   get-action KEY OUTFILE   hit | miss
//   flush                    flushed (every write so far has been sent or dropped)
//   disabled                 yes | no
// Warnings go to stderr as ninja prints them.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iostream>
#include <sstream>
#include <string>

#include "base/disk.h"
#include "cache/http_cache_store.h"

using namespace ronin;

namespace {

std::string ReadWhole(const std::string& path) {
  std::string contents, err;
  if (RealDiskInterface().ReadFile(path, &contents, &err) != FileReader::Status::kOkay) {
    fprintf(stderr, "cache_store_probe: %s: %s\n", path.c_str(), err.c_str());
    exit(2);
  }
  return contents;
}

void WriteWhole(const std::string& path, const std::string& contents) {
  FILE* file = fopen(path.c_str(), "wb");
  if (!file || fwrite(contents.data(), 1, contents.size(), file) != contents.size() || fclose(file) != 0) {
    fprintf(stderr, "cache_store_probe: cannot write %s\n", path.c_str());
    exit(2);
  }
}

std::string Run(HttpCacheStore* store, const std::string& line) {
  std::istringstream words(line);
  std::string command, first, second;
  words >> command >> first >> second;
  std::string bytes, digest;
  if (command == "put-blob") {
    bool stored = store->PutBlob(ReadWhole(first), &digest);
    return (stored ? "stored " : "refused ") + digest;
  }
  if (command == "get-blob") {
    if (!store->GetBlob(first, &bytes)) return "miss";
    WriteWhole(second, bytes);
    return "hit";
  }
  if (command == "put-action") return store->PutAction(first, ReadWhole(second)) ? "stored" : "refused";
  if (command == "get-action") {
    if (!store->GetAction(first, &bytes)) return "miss";
    WriteWhole(second, bytes);
    return "hit";
  }
  if (command == "flush") {
    store->Flush();
    return "flushed";
  }
  if (command == "disabled") return store->disabled() ? "yes" : "no";
  return "unknown command";
}

}  // namespace

int main(int argc, char** argv) {
  HttpCacheOptions options;
  int arg = 1;
  if (arg < argc && strncmp(argv[arg], "--timeout-ms=", 13) == 0) {
    int ms = atoi(argv[arg] + 13);
    options.timeouts = {ms, ms, 4 * ms};
    ++arg;
  }
  if (arg + 1 != argc) {
    fprintf(stderr, "usage: cache_store_probe [--timeout-ms=N] URL\n");
    return 2;
  }
  std::string err;
  std::unique_ptr<CacheStore> opened = OpenHttpCacheStore(argv[arg], options, &err);
  if (!opened) {
    fprintf(stderr, "ninja: error: %s\n", err.c_str());
    return 1;
  }
  HttpCacheStore* store = static_cast<HttpCacheStore*>(opened.get());
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::cout << Run(store, line) << std::endl;
  }
  return 0;
}
