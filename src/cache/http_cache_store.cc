// See cache/http_cache_store.h.
#include "cache/http_cache_store.h"

#include "base/background_thread.h"
#include "base/sha256.h"
#include "base/util.h"
#include "net/dns_resolver.h"

namespace ronin {

namespace {

// Action entries are a few lines per output; anything bigger is not one.
constexpr size_t kMaxActionBytes = 16 << 20;
// Connections kept open beyond the upload threads' (for reads).
constexpr size_t kExtraIdleConnections = 4;  // the build cache's lookup threads (cache/build_cache.cc)

}  // namespace

std::unique_ptr<CacheStore> OpenHttpCacheStore(const std::string& url, std::string* err) {
  return OpenHttpCacheStore(url, HttpCacheOptions(), err);
}

std::unique_ptr<CacheStore> OpenHttpCacheStore(const std::string& url,
                                               const HttpCacheOptions& options, std::string* err) {
  HttpUrl parsed;
  std::string url_err;
  if (!ParseHttpUrl(url, &parsed, &url_err)) {
    *err = "bad cache URL '" + url + "': " + url_err;
    return nullptr;
  }
  // Numeric addresses and the hosts file first, then DNS (only here, so
  // builds without an HTTP cache never read resolv.conf). An unknown name
  // leaves no addresses, which the first request reports as the server's
  // failure.
  std::vector<sockaddr_storage> addresses;
  std::string resolve_err;
  ResolveHost(parsed.host, parsed.port, &addresses, &resolve_err);
  return std::make_unique<HttpCacheStore>(url, parsed, addresses, options);
}

HttpCacheStore::HttpCacheStore(std::string url_text, HttpUrl url,
                               std::vector<sockaddr_storage> addresses, HttpCacheOptions options)
    : url_text_(std::move(url_text)), url_(std::move(url)), addresses_(std::move(addresses)),
      options_(std::move(options)) {
  if (options_.upload_threads < 1) options_.upload_threads = 1;
}

HttpCacheStore::~HttpCacheStore() {
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    stopping_ = true;
  }
  queue_changed_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void HttpCacheStore::Disable(const std::string& what) {
  if (disabled_.exchange(true)) return;
  std::string message = "cache server " + url_text_ + ": " + what + "; building locally";
  if (options_.warn) options_.warn(message);
  else Warning("%s", message.c_str());
  // An entry waiting for its blobs, or a write waiting for room, gives up.
  // Taking the lock first makes sure no waiter is between its check and its wait.
  { std::lock_guard<std::mutex> lock(queue_mutex_); }
  queue_changed_.notify_all();
}

std::unique_ptr<HttpConnection> HttpCacheStore::TakeConnection() {
  std::lock_guard<std::mutex> lock(pool_mutex_);
  if (idle_.empty()) return std::make_unique<HttpConnection>(addresses_, options_.timeouts);
  std::unique_ptr<HttpConnection> connection = std::move(idle_.back());
  idle_.pop_back();
  return connection;
}

void HttpCacheStore::ReturnConnection(std::unique_ptr<HttpConnection> connection) {
  std::lock_guard<std::mutex> lock(pool_mutex_);
  if (idle_.size() < static_cast<size_t>(options_.upload_threads) + kExtraIdleConnections)
    idle_.push_back(std::move(connection));
}

bool HttpCacheStore::Fetch(const std::string& target, size_t max_body, std::string* body) {
  if (disabled_) return false;
  std::unique_ptr<HttpConnection> connection = TakeConnection();
  HttpResponseParser response(max_body);
  std::string err;
  if (!connection->Request("GET", target, url_.host_header, {}, false, max_body, &response, &err)) {
    Disable("GET " + target + ": " + err);
    return false;
  }
  ReturnConnection(std::move(connection));
  if (response.status() == 200) {
    *body = response.body();
    return true;
  }
  if (response.status() != 404) Disable("GET " + target + ": status " + std::to_string(response.status()));
  return false;
}

bool HttpCacheStore::Send(const std::string& target, std::string_view bytes) {
  if (disabled_) return false;
  std::unique_ptr<HttpConnection> connection = TakeConnection();
  HttpResponseParser response(kMaxActionBytes);
  std::string err;
  if (!connection->Request("PUT", target, url_.host_header, bytes, true, kMaxActionBytes, &response,
                           &err)) {
    Disable("PUT " + target + ": " + err);
    return false;
  }
  ReturnConnection(std::move(connection));
  if (response.status() / 100 == 2) return true;
  Disable("PUT " + target + ": status " + std::to_string(response.status()));
  return false;
}

bool HttpCacheStore::GetAction(const std::string& key, std::string* entry) {
  return IsSha256Hex(key) && Fetch(url_.prefix + "/ac/" + key, kMaxActionBytes, entry);
}

bool HttpCacheStore::GetBlob(const std::string& digest, std::string* bytes) {
  if (!IsSha256Hex(digest) || !Fetch(url_.prefix + "/cas/" + digest, options_.max_blob_bytes, bytes))
    return false;
  if (Sha256Hex(*bytes) == digest) return true;
  bytes->clear();  // damaged on the server: a miss; the rebuilt output's PUT replaces it
  return false;
}

bool HttpCacheStore::PutAction(const std::string& key, std::string_view entry) {
  if (disabled_ || !IsSha256Hex(key) || entry.size() > kMaxActionBytes) return false;
  Enqueue({url_.prefix + "/ac/" + key, std::string(entry), false, 0});
  return true;
}

bool HttpCacheStore::PutBlob(std::string_view bytes, std::string* digest) {
  *digest = Sha256Hex(bytes);
  if (disabled_ || bytes.size() > options_.max_blob_bytes) return false;
  Enqueue({url_.prefix + "/cas/" + *digest, std::string(bytes), true, 0});
  return true;
}

void HttpCacheStore::Enqueue(Upload upload) {
  std::unique_lock<std::mutex> lock(queue_mutex_);
  queue_changed_.wait(lock, [&] {
    return disabled_ || queued_bytes_ == 0 ||
           queued_bytes_ + upload.bytes.size() <= options_.max_queued_bytes;
  });
  if (disabled_) return;
  upload.sequence = next_sequence_++;
  if (upload.is_blob) blobs_in_flight_.insert(upload.sequence);
  queued_bytes_ += upload.bytes.size();
  queue_.push_back(std::move(upload));
  // Threads start with the first write: a build that only reads has none.
  if (threads_.size() < static_cast<size_t>(options_.upload_threads) &&
      static_cast<int>(threads_.size()) < static_cast<int>(queue_.size()) + uploads_running_)
    threads_.push_back(StartBackgroundThread(&HttpCacheStore::UploadLoop, this));
  queue_changed_.notify_all();
}

void HttpCacheStore::UploadLoop() {
  std::unique_lock<std::mutex> lock(queue_mutex_);
  while (true) {
    queue_changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left to send
    Upload upload = std::move(queue_.front());
    queue_.pop_front();
    ++uploads_running_;
    // An entry waits for the blobs queued before it. Those were taken off
    // the queue first (it is FIFO), so other threads are sending them.
    if (!upload.is_blob) {
      queue_changed_.wait(lock, [&] {
        return disabled_ || blobs_in_flight_.empty() || *blobs_in_flight_.begin() > upload.sequence;
      });
    }
    lock.unlock();
    Send(upload.target, upload.bytes);
    lock.lock();
    --uploads_running_;
    queued_bytes_ -= upload.bytes.size();
    if (upload.is_blob) blobs_in_flight_.erase(upload.sequence);
    queue_changed_.notify_all();
  }
}

void HttpCacheStore::Flush() {
  std::unique_lock<std::mutex> lock(queue_mutex_);
  queue_changed_.wait(lock, [&] { return queue_.empty() && uploads_running_ == 0; });
}

}  // namespace ronin
