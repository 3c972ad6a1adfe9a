#include "base/compact_vector.h"

#include <gtest/gtest.h>

#include <vector>

namespace ronin {
namespace {

TEST(CompactVectorTest, BehavesLikeAVectorOfPointers) {
  int values[10];
  CompactVector<int*> v;
  EXPECT_TRUE(v.empty());
  for (int i = 0; i < 10; ++i) v.push_back(&values[i]);
  ASSERT_EQ(10u, v.size());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(&values[i], v[i]);
  EXPECT_EQ(&values[0], v.front());
  EXPECT_EQ(&values[9], v.back());
  EXPECT_EQ(&values[3], v.at(3));
  EXPECT_THROW(v.at(10), std::out_of_range);
  std::vector<int*> reversed(v.rbegin(), v.rend());
  EXPECT_EQ(&values[9], reversed[0]);
}

TEST(CompactVectorTest, InsertAndErase) {
  int a, b, c, d;
  CompactVector<int*> v;
  v.push_back(&a);
  v.push_back(&d);
  std::vector<int*> middle{&b, &c};
  auto at = v.insert(v.begin() + 1, middle.begin(), middle.end());
  EXPECT_EQ(v.begin() + 1, at);
  EXPECT_EQ((std::vector<int*>{&a, &b, &c, &d}), std::vector<int*>(v.begin(), v.end()));
  at = v.insert(v.end(), 2, nullptr);
  EXPECT_EQ(6u, v.size());
  EXPECT_EQ(nullptr, v[4]);
  v.erase(v.begin() + 4, v.end());
  v.erase(v.begin(), v.begin() + 1);
  EXPECT_EQ((std::vector<int*>{&b, &c, &d}), std::vector<int*>(v.begin(), v.end()));
  v.clear();
  EXPECT_TRUE(v.empty());
}

// An empty vector has no storage: inserting or erasing nothing must not
// hand memmove a null pointer (UndefinedBehaviorSanitizer reports it; a
// deps record with no dependencies did this).
TEST(CompactVectorTest, EmptyRangesOnAnEmptyVector) {
  CompactVector<int*> v;
  std::vector<int*> none;
  EXPECT_EQ(v.begin(), v.insert(v.begin(), none.begin(), none.end()));
  EXPECT_EQ(v.end(), v.insert(v.end(), 0, nullptr));
  EXPECT_EQ(v.begin(), v.erase(v.begin(), v.end()));
  EXPECT_TRUE(v.empty());
}

TEST(CompactVectorTest, ReserveKeepsElementsAndAlignment) {
  CompactVector<double*> v;
  for (int round = 0; round < 50; ++round) {
    // Unaligned arena traffic in between must not misalign the elements.
    GraphArena()->Copy("odd");
    v.push_back(nullptr);
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(v.data()) % alignof(double*));
  }
  v.reserve(1000);
  EXPECT_EQ(50u, v.size());
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(v.data()) % alignof(double*));
}

TEST(CompactVectorTest, CountedListsAllocateOnce) {
  int a = 0, b = 0, c = 0;
  CompactVector<int*> counted;
  for (int i = 0; i < 3; ++i) counted.CountForLater();
  EXPECT_TRUE(counted.empty());
  counted.AllocateCounted();
  int* const* storage = counted.data();
  for (int* element : {&a, &b, &c}) {
    counted.AllocateCounted();  // no-op once allocated
    counted.push_back(element);
  }
  EXPECT_EQ(storage, counted.data());  // no growth: room for exactly three
  EXPECT_EQ((std::vector<int*>{&a, &b, &c}), std::vector<int*>(counted.begin(), counted.end()));
  counted.push_back(&a);  // beyond the count it grows as usual
  EXPECT_EQ(4u, counted.size());

  // A list that already owns memory does not count; it just grows.
  CompactVector<int*> grown;
  grown.push_back(&a);
  grown.CountForLater();
  grown.AllocateCounted();
  grown.push_back(&b);
  EXPECT_EQ((std::vector<int*>{&a, &b}), std::vector<int*>(grown.begin(), grown.end()));
}

TEST(ArenaTest, CopiesAreNulTerminatedAndLarge) {
  Arena arena;
  std::string_view small = arena.Copy("abc");
  EXPECT_EQ("abc", small);
  EXPECT_EQ('\0', small.data()[3]);
  std::string big(100000, 'x');
  std::string_view copy = arena.Copy(big);
  EXPECT_EQ(big, copy);
  // A large copy gets a block of its own and does not waste the current one.
  std::string_view after = arena.Copy("def");
  EXPECT_EQ(small.data() + 4, after.data());
}

}  // namespace
}  // namespace ronin
