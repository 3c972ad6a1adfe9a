// A Status that passes every call on to another one. A view that adds to
// the classic status (the live view, status/live_status.h) derives from it and
// overrides only the calls it changes; the rest reach the inner Status
// unchanged.
#ifndef RONIN_STATUS_STATUS_FORWARDER_H_
#define RONIN_STATUS_STATUS_FORWARDER_H_

#include <string>

#include "status/status.h"

namespace ronin {

class StatusForwarder : public Status {
 public:
  // `inner` must outlive the forwarder; it may be a member of the subclass
  // (it is not used before the first call).
  explicit StatusForwarder(Status* inner) : inner_(inner) {}

  void EdgeAddedToPlan(const Edge* edge) override { inner_->EdgeAddedToPlan(edge); }
  void EdgeRemovedFromPlan(const Edge* edge) override { inner_->EdgeRemovedFromPlan(edge); }
  void BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) override {
    inner_->BuildEdgeStarted(edge, start_time_millis);
  }
  void BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                         ExitStatus exit_code, const std::string& output) override {
    inner_->BuildEdgeFinished(edge, start_time_millis, end_time_millis, exit_code, output);
  }
  void BuildStarted() override { inner_->BuildStarted(); }
  void BuildFinished() override { inner_->BuildFinished(); }
  void SetExplanations(const Explanations* explanations) override { inner_->SetExplanations(explanations); }
  void SetCacheCounts(const CacheCounts* counts) override { inner_->SetCacheCounts(counts); }
  int64_t RefreshDeadline() const override { return inner_->RefreshDeadline(); }
  void BuildEdgeOutputSoFar(const Edge* edge, const std::string& output) override {
    inner_->BuildEdgeOutputSoFar(edge, output);
  }
  void Refresh(int64_t time_millis) override { inner_->Refresh(time_millis); }

 private:
  Status* inner_;
};

}  // namespace ronin

#endif  // RONIN_STATUS_STATUS_FORWARDER_H_
