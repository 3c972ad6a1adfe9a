// The build cache on an HTTP server (issue 15): the layout of Bazel's HTTP
// remote cache, GET and PUT of PREFIX/ac/<key> and PREFIX/cas/<sha256>, so
// nginx with WebDAV PUT, bazel-remote or Apache mod_dav serve it as is.
//
// Reads are synchronous on kept-alive connections from a small pool; every
// blob read is verified against its name, and a mismatch is a miss. Writes
// return at once and are sent by a few upload threads, each on its own
// connection; an action entry goes out only after every blob written before
// it, so other builds never see an entry whose outputs are still on the way.
//
// The server is optional by design: the first failure (cannot connect, a
// timeout, a malformed response, a status other than 200/404 on GET or 2xx
// on PUT) prints one warning, and from then on the store answers "miss" and
// drops writes, so the build goes on locally without further waits.
#ifndef RONIN_CACHE_HTTP_CACHE_STORE_H_
#define RONIN_CACHE_HTTP_CACHE_STORE_H_

#include <stddef.h>
#include <stdint.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cache/cache_store.h"
#include "net/http_client.h"

namespace ronin {

struct HttpCacheOptions {
  HttpTimeouts timeouts;
  int upload_threads = 4;
  // Writes waiting for an upload thread hold at most this many bytes; a
  // write beyond it waits, so a slow server cannot make memory grow.
  size_t max_queued_bytes = size_t{256} << 20;
  // Blobs larger than this are neither read nor written.
  size_t max_blob_bytes = size_t{2} << 30;
  // Where the warning goes (tests collect it); Warning() when empty.
  std::function<void(const std::string&)> warn;
};

// The store for `url` ("http://HOST[:PORT][/PREFIX]"). Null with *err if
// the URL is not one (https:// included: see doc/design.md). An unknown host
// is not an error here: it is the first failure, warned about on first use.
std::unique_ptr<CacheStore> OpenHttpCacheStore(const std::string& url, std::string* err);
std::unique_ptr<CacheStore> OpenHttpCacheStore(const std::string& url,
                                               const HttpCacheOptions& options, std::string* err);

class HttpCacheStore : public CacheStore {
 public:
  HttpCacheStore(std::string url_text, HttpUrl url, std::vector<sockaddr_storage> addresses,
                 HttpCacheOptions options);
  // Waits for the writes still queued (each bounded by the timeouts).
  ~HttpCacheStore() override;

  bool GetAction(const std::string& key, std::string* entry) override;
  bool PutAction(const std::string& key, std::string_view entry) override;
  bool GetBlob(const std::string& digest, std::string* bytes) override;
  bool PutBlob(std::string_view bytes, std::string* digest) override;
  // The server keeps its own size; each lookup is a round trip; the first
  // failure is warned about here, once.
  bool LookupsAreRoundTrips() const override { return true; }
  bool WarnsOfItsFailures() const override { return true; }

  // Waits until every write made so far has been sent (or dropped).
  void Flush();
  // After the first failure: everything is a miss from then on.
  bool disabled() const { return disabled_; }

 private:
  struct Upload {
    std::string target;
    std::string bytes;
    bool is_blob = true;
    int64_t sequence = 0;
  };
  // GET of `target`: true with *body on 200; false on 404 and on failures.
  bool Fetch(const std::string& target, size_t max_body, std::string* body);
  // PUT of `bytes` to `target`; false (and disabled) on failure.
  bool Send(const std::string& target, std::string_view bytes);
  void Enqueue(Upload upload);
  void UploadLoop();
  void Disable(const std::string& what);
  std::unique_ptr<HttpConnection> TakeConnection();
  void ReturnConnection(std::unique_ptr<HttpConnection> connection);

  std::string url_text_;
  HttpUrl url_;
  std::vector<sockaddr_storage> addresses_;
  HttpCacheOptions options_;
  std::atomic<bool> disabled_{false};

  std::mutex pool_mutex_;
  std::vector<std::unique_ptr<HttpConnection>> idle_;

  std::mutex queue_mutex_;
  std::condition_variable queue_changed_;
  std::deque<Upload> queue_;
  size_t queued_bytes_ = 0;
  int64_t next_sequence_ = 0;
  std::set<int64_t> blobs_in_flight_;  // queued or being sent
  int uploads_running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ronin

#endif  // RONIN_CACHE_HTTP_CACHE_STORE_H_
