#include "events/edge_events.h"

#include "events/event_stream.h"
#include "graph/graph.h"
#include "log/build_log.h"
#include "scan/explain.h"

namespace ronin {

void EdgeEvents::Started(const Work& work, const CommandRunner& /*runner*/) {
  const Edge* edge = work.edge;
  if (const std::vector<std::string>* reasons = explanations_ ? explanations_->Lookup(edge) : nullptr)
    stream_->Explained(edge, *reasons);
  int64_t start_ms = stream_->BuildMillis();
  running_[edge] = start_ms;
  stream_->EdgeStarted(edge, start_ms);
}

bool EdgeEvents::Record(const FinishedCommand& command, std::string* /*err*/) {
  running_.erase(command.edge);
  EdgeEndEvent event;
  event.edge = command.edge;
  event.exit_status = static_cast<int>(command.status);
  event.start_ms = command.start_millis;
  event.end_ms = command.end_millis;
  event.peak_rss_bytes = command.peak_rss_bytes;
  if (command.output) event.output = *command.output;
  event.cached = command.cached;
  event.unchanged_outputs = command.unchanged_outputs;
  // The entry the build log's recorder (wired before) has just written.
  const BuildLog::Entry* entry =
      build_log_ && command.success() ? build_log_->Lookup(command.edge->outputs[0]->path) : nullptr;
  if (entry) {
    event.logged = true;
    event.log_mtime = entry->mtime;
    event.command_hash = entry->command_hash;
  }
  stream_->EdgeFinished(event);
  return true;  // a stream that cannot be written stops itself, not the build
}

void EdgeEvents::Abort() {
  int64_t now = stream_->BuildMillis();
  for (const auto& running : running_) {
    EdgeEndEvent event;
    event.edge = running.first;
    event.interrupted = true;
    event.start_ms = running.second;
    event.end_ms = now;
    stream_->EdgeFinished(event);
  }
  running_.clear();
}

}  // namespace ronin
