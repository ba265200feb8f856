// The shared helpers of engine/ the whole product stands on: one fan-out (parallel_for), one
// seeded random source (splitmix64), one position-field splitter, one JSON writer.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "arbiter/json.hpp"
#include "arbiter/parallel.hpp"
#include "arbiter/random.hpp"
#include "arbiter/text_fields.hpp"

namespace {

TEST(ParallelFor, ZeroJobsRunNothing) {
  std::atomic<int> ran{0};
  EXPECT_EQ(arb::parallel_for(0, [&](int, std::stop_token) { ++ran; }), 0);
  EXPECT_EQ(arb::parallel_for(-3, [&](int, std::stop_token) { ++ran; }), 0);
  EXPECT_EQ(ran.load(), 0);
}

TEST(ParallelFor, MoreJobsThanItemsTakeEachItemOnce) {
  // Jobs pulling items from a shared counter, as `solve --epd --jobs` does: with 8 jobs and
  // 3 items every item is taken exactly once and the idle jobs end at once.
  const size_t items = 3;
  std::vector<std::atomic<int>> taken(items);
  std::atomic<size_t> next{0};
  arb::parallel_for(8, [&](int, std::stop_token) {
    for (size_t i; (i = next.fetch_add(1)) < items;) ++taken[i];
  });
  for (auto& t : taken) EXPECT_EQ(t.load(), 1);
}

TEST(ParallelFor, FirstExceptionReachesTheCallerAfterEveryJobEnded) {
  std::atomic<int> ended{0};
  try {
    arb::parallel_for(4, [&](int j, std::stop_token stop) {
      if (j == 1) throw std::invalid_argument("job 1");
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (!stop.stop_requested() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      EXPECT_TRUE(stop.stop_requested()) << "job " << j << " ran its 20 s";
      ++ended;
    });
    ADD_FAILURE() << "no exception reached the caller";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "job 1");
  }
  EXPECT_EQ(ended.load(), 3);  // the others had ended when the caller saw the error
}

TEST(SplitMix64, IsTheRecordedStream) {
  // splitmix64 from seed 0: the first outputs of the reference implementation (Vigna's
  // splitmix64.c), which the recorded `start:SEED` deals and dice rest on.
  uint64_t s = 0;
  EXPECT_EQ(arb::splitmix64_next(s), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(arb::splitmix64_next(s), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(arb::splitmix64_next(s), 0x06C45D188009454Full);
  EXPECT_EQ(s, 3 * arb::kSplitMixGamma);
  EXPECT_EQ(arb::splitmix64_mix(arb::kSplitMixGamma), 0xE220A8397B1DCDAFull);
}

TEST(TextFields, SplitWithColumnsAndJoin) {
  auto f = arb::split_fields("  8/8 w\t- ");
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].text, "8/8");
  EXPECT_EQ(f[0].col, 2u);
  EXPECT_EQ(f[2].text, "-");
  EXPECT_EQ(f[2].col, 8u);
  EXPECT_TRUE(arb::split_fields(" \t ").empty());
  auto s = arb::field_strings("k7/8 b  KQ -");
  s[1] = "w";
  EXPECT_EQ(arb::join_fields(s), "k7/8 w KQ -");
}

TEST(BoardRanks, ExpandsEmptySquaresAndRefusesMarks) {
  auto r = arb::board_ranks("r3k/10/PP1pp");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (std::vector<std::string>{"r...k", "..........", "PP.pp"}));
  EXPECT_FALSE(arb::board_ranks("rnbq~k/8"));  // a promoted-piece mark
  EXPECT_FALSE(arb::board_ranks("99/8"));      // a run longer than 64 squares
  EXPECT_TRUE(arb::board_ranks("99/8", 100));
}

TEST(JsonText, OneLineOfValidUtf8WithoutRawControls) {
  arb::Json j = {{"b", 1}, {"a", "x\ny"}, {"bytes", "\x1b\x7f\xc2\x85\xfe\xe2\x99\x94"}};
  // Keys in the order set; newline and C0/DEL/C1 as \u escapes, a non-UTF-8 byte U+FFFD.
  EXPECT_EQ(arb::json_text(j),
            "{\"b\":1,\"a\":\"x\\ny\",\"bytes\":\"\\u001b\\u007f\\u0085\xef\xbf\xbd\xe2\x99\x94\"}");
  // What it writes reads back as the same value (the bad byte replaced).
  arb::Json back = arb::Json::parse(arb::json_text(j));
  EXPECT_EQ(back.at("bytes").get<std::string>(), "\x1b\x7f\xc2\x85\xef\xbf\xbd\xe2\x99\x94");
  EXPECT_EQ(arb::json_text(arb::Json::array()), "[]");
}

}  // namespace
