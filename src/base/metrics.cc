#include "base/metrics.h"

#include <stdio.h>

#include <algorithm>

namespace ronin {

Metrics* g_metrics = nullptr;

Metric* Metrics::NewMetric(const std::string& name) {
  metrics_.emplace_back(new Metric);
  metrics_.back()->name = name;
  return metrics_.back().get();
}

void Metrics::Report() const {
  int width = 0;
  for (const auto& metric : metrics_) width = std::max(width, static_cast<int>(metric->name.size()));
  printf("%-*s\t%-6s\t%-9s\t%s\n", width, "metric", "count", "avg (us)", "total (ms)");
  for (const auto& metric : metrics_) {
    double total_ms = metric->total_micros / 1000.0;
    double average = metric->count ? metric->total_micros / static_cast<double>(metric->count) : 0.0;
    printf("%-*s\t%-6d\t%-8.1f\t%.1f\n", width, metric->name.c_str(), metric->count, average, total_ms);
  }
}

}  // namespace ronin
