// The shared helpers of engine/ the whole product stands on: one JSON writer.
#include <gtest/gtest.h>

#include <string>

#include "arbiter/json.hpp"

namespace {

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
