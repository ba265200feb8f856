// The shared helpers of engine/ the whole product stands on: one seeded random source
// (splitmix64), one position-field splitter, one JSON writer.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "arbiter/json.hpp"
#include "arbiter/random.hpp"
#include "arbiter/text_fields.hpp"

namespace {

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
