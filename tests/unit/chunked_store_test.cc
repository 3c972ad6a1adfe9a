// Tests for ChunkedStore (base/chunked_store.h): creation order, stable
// addresses, and snapshots that index objects by address while the store
// keeps growing.
#include "base/chunked_store.h"

#include "graph/graph.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ronin {
namespace {

TEST(ChunkedStoreTest, KeepsOrderAndAddressesAcrossChunks) {
  ChunkedStore<Node> store;
  EXPECT_TRUE(store.empty());
  std::vector<std::string> paths;
  for (int i = 0; i < 10000; ++i) paths.push_back("n" + std::to_string(i));
  std::vector<Node*> created;
  for (const std::string& path : paths) created.push_back(&store.emplace_back(path));
  ASSERT_EQ(paths.size(), store.size());
  size_t index = 0;
  for (const Node& node : store) {
    EXPECT_EQ(created[index], &node);
    EXPECT_EQ(paths[index], node.path);
    ++index;
  }
  EXPECT_EQ(paths.size(), index);
  EXPECT_EQ(created.back(), &store.back());
  EXPECT_EQ("n0", store.front().path);
  EXPECT_EQ(created[5000], &store[5000]);
}

TEST(ChunkedStoreTest, SnapshotIndexesByAddressWhileTheStoreGrows) {
  ChunkedStore<Node> store;
  std::vector<std::string> paths;
  for (int i = 0; i < 20000; ++i) paths.push_back("p" + std::to_string(i));
  for (int i = 0; i < 9000; ++i) store.emplace_back(paths[i]);
  ChunkedStore<Node>::Snapshot snapshot = store.Take();
  for (int i = 9000; i < 20000; ++i) store.emplace_back(paths[i]);  // new chunks
  ASSERT_EQ(9000u, snapshot.size());
  uint32_t index = 0;
  for (const Node* node : snapshot) {
    ASSERT_EQ(&store[index], node);
    ASSERT_EQ(index, snapshot.IndexOf(node));
    ++index;
  }
  EXPECT_EQ(9000u, index);
  EXPECT_EQ(&store[4096], snapshot[4096]);  // the first node of the second chunk
}

TEST(ChunkedStoreTest, ReservedRoomHoldsTheObjectsInOrder) {
  ChunkedStore<Node> store;
  std::vector<std::string> paths;
  for (int i = 0; i < 50000; ++i) paths.push_back("r" + std::to_string(i));
  store.emplace_back(paths[0]);  // a chunk taken before the reservation
  store.Reserve(40000);          // 10 chunks of 4096 nodes: over 2 MiB
  for (int i = 1; i < 50000; ++i) store.emplace_back(paths[i]);  // past the reserved room too
  ASSERT_EQ(50000u, store.size());
  ChunkedStore<Node>::Snapshot snapshot = store.Take();
  for (uint32_t i = 0; i < 50000; ++i) {
    ASSERT_EQ(paths[i], store[i].path);
    ASSERT_EQ(i, snapshot.IndexOf(&store[i]));
  }
  // A smaller reservation than the store holds changes nothing.
  store.Reserve(10);
  EXPECT_EQ(&store[4096], snapshot[4096]);
}

}  // namespace
}  // namespace ronin
