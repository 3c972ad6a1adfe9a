// -d stats: counts and timings of the hot operations, printed after the build.
#ifndef RONIN_BASE_METRICS_H_
#define RONIN_BASE_METRICS_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ronin {

struct Metric {
  std::string name;
  int count = 0;
  int64_t total_micros = 0;
};

class Metrics {
 public:
  Metric* NewMetric(const std::string& name);
  // Prints the "metric count avg (us) total (ms)" table to stdout.
  void Report() const;

 private:
  std::vector<std::unique_ptr<Metric>> metrics_;
};

// Set by -d stats; null otherwise (then recording costs one branch).
extern Metrics* g_metrics;

class ScopedMetric {
 public:
  explicit ScopedMetric(Metric* metric) : metric_(metric) {
    if (metric_) start_ = std::chrono::steady_clock::now();
  }
  ~ScopedMetric() {
    if (!metric_) return;
    auto elapsed = std::chrono::steady_clock::now() - start_;
    metric_->count++;
    metric_->total_micros += std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
  }
  ScopedMetric(const ScopedMetric&) = delete;
  ScopedMetric& operator=(const ScopedMetric&) = delete;

 private:
  Metric* metric_;
  std::chrono::steady_clock::time_point start_;
};

#define RONIN_METRIC_CONCAT2(a, b) a##b
#define RONIN_METRIC_CONCAT(a, b) RONIN_METRIC_CONCAT2(a, b)
// Times the enclosing scope under `name` when -d stats is on.
#define METRIC_RECORD(name)                                                                     \
  static ::ronin::Metric* RONIN_METRIC_CONCAT(metric_, __LINE__) =                             \
      ::ronin::g_metrics ? ::ronin::g_metrics->NewMetric(name) : nullptr;                       \
  ::ronin::ScopedMetric RONIN_METRIC_CONCAT(scoped_metric_, __LINE__)(RONIN_METRIC_CONCAT(metric_, __LINE__))

}  // namespace ronin

#endif  // RONIN_BASE_METRICS_H_
