// A Status that passes every call on to another one, each under a mutex
// the subclass shares. A view that adds to the classic status (the live
// view, live_status.h) derives from it and overrides only the calls it
// changes; the rest reach the inner Status unchanged, still serialised
// against the view's own thread.
#ifndef RONIN_STATUS_FORWARDER_H_
#define RONIN_STATUS_FORWARDER_H_

#include <mutex>
#include <string>

#include "status.h"

namespace ronin {

class StatusForwarder : public Status {
 public:
  // `inner` must outlive the forwarder; it may be a member of the subclass
  // (it is not used before the first call).
  explicit StatusForwarder(Status* inner) : inner_(inner) {}

  void EdgeAddedToPlan(const Edge* edge) override {
    Guard guard(mutex_);
    inner_->EdgeAddedToPlan(edge);
  }
  void EdgeRemovedFromPlan(const Edge* edge) override {
    Guard guard(mutex_);
    inner_->EdgeRemovedFromPlan(edge);
  }
  void BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) override {
    Guard guard(mutex_);
    inner_->BuildEdgeStarted(edge, start_time_millis);
  }
  void BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                         ExitStatus exit_code, const std::string& output) override {
    Guard guard(mutex_);
    inner_->BuildEdgeFinished(edge, start_time_millis, end_time_millis, exit_code, output);
  }
  void BuildStarted() override {
    Guard guard(mutex_);
    inner_->BuildStarted();
  }
  void BuildFinished() override {
    Guard guard(mutex_);
    inner_->BuildFinished();
  }
  void SetExplanations(const Explanations* explanations) override {
    Guard guard(mutex_);
    inner_->SetExplanations(explanations);
  }
  void SetCacheCounts(const CacheCounts* counts) override {
    Guard guard(mutex_);
    inner_->SetCacheCounts(counts);
  }
  bool WantsRunningOutput() const override { return inner_->WantsRunningOutput(); }
  void BuildEdgeOutputSoFar(const Edge* edge, const std::string& output) override {
    Guard guard(mutex_);
    inner_->BuildEdgeOutputSoFar(edge, output);
  }

 protected:
  using Guard = std::lock_guard<std::mutex>;
  // Held around every forwarded call; a subclass holds it for its own state.
  std::mutex mutex_;

 private:
  Status* inner_;
};

}  // namespace ronin

#endif  // RONIN_STATUS_FORWARDER_H_
