// Tests for the event stream's writer (events/event_stream.h) and its JSON
// strings (events/json_text.h). The schema itself (doc/events.md) is checked
// on real builds by tests/blackbox/test_events.py with misc/events_schema.py.
#include "events/event_stream.h"

#include <fcntl.h>
#include <unistd.h>
#ifndef _WIN32
#include <signal.h>
#endif

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "events/json_text.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::ReadRealFile;
using test::ScopedTempDir;

std::string Json(std::string_view text) {
  std::string out;
  AppendJsonText(text, &out);
  return out;
}

TEST(JsonTextTest, EscapesQuotesBackslashesAndControls) {
  EXPECT_EQ("\"plain text/path.o\"", Json("plain text/path.o"));
  EXPECT_EQ("\"a\\\"b\\\\c\"", Json("a\"b\\c"));
  EXPECT_EQ("\"\\n\\r\\t\\b\\f\\u0001\\u001f\"", Json("\n\r\t\b\f\x01\x1f"));
  EXPECT_EQ("\"\x7f\"", Json("\x7f"));
  EXPECT_EQ("\"\\u0000x\"", Json(std::string_view("\0x", 2)));
}

TEST(JsonTextTest, KeepsUtf8AndReplacesWhatIsNot) {
  EXPECT_EQ("\"caf\xC3\xA9 \xE2\x9C\x93 \xF0\x9F\x98\x80\"", Json("caf\xC3\xA9 \xE2\x9C\x93 \xF0\x9F\x98\x80"));
  const std::string kReplacement = "\xEF\xBF\xBD";
  EXPECT_EQ("\"a" + kReplacement + "b\"", Json("a\xFF" "b"));        // never valid
  EXPECT_EQ("\"" + kReplacement + kReplacement + "\"", Json("\xC0\xAF"));  // overlong '/'
  EXPECT_EQ("\"x" + kReplacement + kReplacement + "\"", Json("x\xE2\x9C"));  // cut short: byte by byte
  EXPECT_EQ("\"" + kReplacement + kReplacement + kReplacement + "\"", Json("\xED\xA0\x80"));  // a surrogate
}

class EventStreamTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ParseManifest(&state_,
                              "pool p\n  depth = 1\n"
                              "rule cc\n  command = cc $in -o $out\n  description = CC $out\n  pool = p\n"
                              "build a.o | a.d: cc a.c\n"));
    config_.parallelism = 4;
    std::string err;
    stream_ = EventStream::Open(tmp_.File("events"), &err);
    ASSERT_TRUE(stream_) << err;
    stream_->StreamStarted(config_);
  }

  // The lines written so far, with the times (which vary) as "t":T.
  std::vector<std::string> Lines() {
    std::string text = ReadRealFile(tmp_.File("events"));
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
      lines.push_back(std::regex_replace(text.substr(start, end - start), std::regex("\"t\":[0-9]+"), "\"t\":T"));
    EXPECT_EQ(start, text.size()) << "a line without its newline";
    return lines;
  }
  Edge* edge() { return state_.edges()[0]; }

  State state_;
  BuildConfig config_;
  ScopedTempDir tmp_;
  std::unique_ptr<EventStream> stream_;
};

TEST_F(EventStreamTest, StreamStartNamesTheSchemaAndItsVersion) {
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(1u, lines.size());
  EXPECT_EQ(0u, lines[0].find("{\"event\":\"stream_start\",\"t\":T,\"schema\":\"ronin-events\",\"version\":1,"
                              "\"ninja_version\":\"1.13.2\",\"pid\":"))
      << lines[0];
}

TEST_F(EventStreamTest, ABuildsEventsCarryItsNumber) {
  BuildStartEvent start;
  start.targets = {"a.o"};
  stream_->BuildStarted(start);
  stream_->Explained(edge(), {"output a.o doesn't exist"});
  stream_->EdgeStarted(edge(), 12);
  EdgeEndEvent end;
  end.edge = edge();
  end.start_ms = 12;
  end.end_ms = 30;
  end.peak_rss_bytes = 4096;
  end.output = "warning: x\n";
  end.logged = true;
  end.log_mtime = 1234567890123456789;
  end.command_hash = 0xabc;
  stream_->EdgeFinished(end);
  BuildEndEvent finish;
  finish.planned = 1;  // the rest counted by the stream
  stream_->BuildFinished(finish);
  stream_->StreamEnded(0);
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(7u, lines.size());
  EXPECT_EQ(
      "{\"event\":\"build_start\",\"t\":T,\"build\":1,\"targets\":[\"a.o\"],\"trigger\":\"command_line\","
      "\"changed\":[],\"parallelism\":4,\"failures_allowed\":1,\"max_load\":null,\"dry_run\":false,"
      "\"explain\":false,\"verbosity\":\"normal\",\"options\":{\"content_hash\":false,\"cache\":null,"
      "\"keep_free_memory\":0,\"remote_jobs\":0,\"jobserver_pool\":false}}",
      lines[1]);
  EXPECT_EQ(
      "{\"event\":\"explain\",\"t\":T,\"build\":1,\"edge\":0,\"outputs\":[\"a.o\",\"a.d\"],"
      "\"reasons\":[\"output a.o doesn't exist\"]}",
      lines[2]);
  EXPECT_EQ(
      "{\"event\":\"edge_start\",\"t\":T,\"build\":1,\"edge\":0,\"outputs\":[\"a.o\",\"a.d\"],"
      "\"command\":\"cc a.c -o a.o\",\"description\":\"CC a.o\",\"pool\":\"p\",\"start_ms\":12}",
      lines[3]);
  EXPECT_EQ(
      "{\"event\":\"edge_end\",\"t\":T,\"build\":1,\"edge\":0,\"outputs\":[\"a.o\",\"a.d\"],"
      "\"result\":\"success\",\"exit_status\":0,\"start_ms\":12,\"end_ms\":30,\"peak_rss_bytes\":4096,"
      "\"cached\":false,\"unchanged_outputs\":null,\"output\":\"warning: x\\n\","
      "\"log\":{\"mtime\":1234567890123456789,\"command_hash\":\"0000000000000abc\"}}",
      lines[4]);
  EXPECT_EQ(
      "{\"event\":\"build_end\",\"t\":T,\"build\":1,\"result\":\"success\",\"exit_code\":0,\"error\":\"\","
      "\"counts\":{\"planned\":1,\"started\":1,\"succeeded\":1,\"failed\":0,\"cached\":0,\"skipped\":0}}",
      lines[5]);
  EXPECT_EQ("{\"event\":\"stream_end\",\"t\":T,\"exit_code\":0}", lines[6]);  // outside any build
}

TEST_F(EventStreamTest, InterruptedAndFailedEdges) {
  stream_->BuildStarted(BuildStartEvent());
  EdgeEndEvent end;
  end.edge = edge();
  end.interrupted = true;
  stream_->EdgeFinished(end);
  end.interrupted = false;
  end.exit_status = 3;
  stream_->EdgeFinished(end);
  stream_->EdgeSkipped(edge(), "content_unchanged");
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(5u, lines.size());
  EXPECT_NE(std::string::npos, lines[2].find("\"result\":\"interrupted\",\"exit_status\":null,")) << lines[2];
  EXPECT_NE(std::string::npos, lines[2].find("\"log\":null}")) << lines[2];
  EXPECT_NE(std::string::npos, lines[3].find("\"result\":\"failure\",\"exit_status\":3,")) << lines[3];
  EXPECT_EQ(
      "{\"event\":\"edge_skipped\",\"t\":T,\"build\":1,\"edge\":0,\"outputs\":[\"a.o\",\"a.d\"],"
      "\"reason\":\"content_unchanged\"}",
      lines[4]);
}

#ifdef _WIN32
// Windows gives programs handles, not descriptors: fd:N is refused there
// (event_stream_win.cc), a path works (EventStreamTest above).
TEST(EventStreamOpenTest, FileDescriptorsAreRefusedOnWindows) {
  std::string err;
  EXPECT_FALSE(EventStream::Open("fd:1", &err));
  EXPECT_EQ("'fd:1': a file descriptor is not implemented on Windows (programs get handles there); give a file path",
            err);
  EXPECT_FALSE(EventStream::Open("Z:/nonexistent/dir/events", &err));
  EXPECT_EQ(0u, err.find("opening Z:/nonexistent/dir/events: ")) << err;
}
#else
TEST(EventStreamOpenTest, FileDescriptorsAndErrors) {
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  std::string err;
  {
    std::unique_ptr<EventStream> stream = EventStream::Open("fd:" + std::to_string(fds[1]), &err);
    ASSERT_TRUE(stream) << err;
    BuildConfig config;
    stream->StreamStarted(config);
  }
  EXPECT_NE(-1, fcntl(fds[1], F_GETFD));  // a descriptor given is left open
  char buffer[512];
  ssize_t size = read(fds[0], buffer, sizeof(buffer));
  ASSERT_GT(size, 0);
  EXPECT_EQ(0, std::string(buffer, size).find("{\"event\":\"stream_start\","));
  close(fds[0]);
  close(fds[1]);
  for (const char* bad : {"fd:", "fd:x", "fd:-1", "fd:99999", "fd:3x"}) {
    EXPECT_FALSE(EventStream::Open(bad, &err)) << bad;
    EXPECT_EQ(std::string("'") + bad + "' is not an open file descriptor", err);
  }
  EXPECT_FALSE(EventStream::Open("/nonexistent/dir/events", &err));
  EXPECT_EQ("opening /nonexistent/dir/events: No such file or directory", err);
}

TEST(EventStreamOpenTest, AReaderThatGoesAwayStopsTheStreamNotTheBuild) {
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  close(fds[0]);  // no reader: a write raises SIGPIPE, which must not kill the test
  std::string err;
  std::unique_ptr<EventStream> stream = EventStream::Open("fd:" + std::to_string(fds[1]), &err);
  ASSERT_TRUE(stream) << err;
  BuildConfig config;
  stream->StreamStarted(config);
  EXPECT_FALSE(stream->ok());
  stream->StreamEnded(0);  // nothing more is tried
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE));
  close(fds[1]);
}

#endif  // _WIN32

}  // namespace
}  // namespace ronin
