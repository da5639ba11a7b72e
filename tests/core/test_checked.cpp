// Size arithmetic that cannot wrap, and message text cut at character boundaries.

#include <distarray/core/checked.hpp>
#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/layout.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace distarray {
namespace {

TEST(Checked, MultiplyThrowsInsteadOfWrapping) {
  EXPECT_EQ(checked_multiply(index_t(1) << 31, index_t(1) << 31, "x"), index_t(1) << 62);
  EXPECT_THROW(checked_multiply(index_t(1) << 32, index_t(1) << 32, "x"), LayoutError);  // 2^64 wraps to 0
  EXPECT_THROW(checked_multiply(index_t(1) << 62, 2, "x"), LayoutError);                 // 2^63
  EXPECT_THROW(checked_multiply(-1, 2, "x"), LayoutError);
  EXPECT_EQ(checked_element_count(std::array<index_t, 3>{4, 0, index_t(1) << 62}), 0);
  EXPECT_THROW(checked_bytes(index_t(1) << 61, 8), LayoutError);
  EXPECT_EQ(checked_add(index_t(1) << 62, (index_t(1) << 62) - 1, "x"), std::numeric_limits<index_t>::max());
  EXPECT_THROW(checked_add(index_t(1) << 62, index_t(1) << 62, "x"), LayoutError);
  EXPECT_EQ(checked_bytes(index_t(1) << 59, 8), index_t(1) << 62);
}

TEST(Checked, LayoutsOfTooManyElementsAreRefused) {
  try {
    Layout<2>::parse("block,* on 1x1", {index_t(1) << 32, index_t(1) << 32});
    ADD_FAILURE() << "a 2^64-element layout was accepted";
  } catch (const LayoutError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("does not fit in 63 bits"), std::string::npos) << what;
    EXPECT_EQ(what.find("layout '"), what.rfind("layout '")) << "names the layout twice: " << what;
  }
  EXPECT_THROW(Layout<3>::parse("*,*,* on 1x1x1", {index_t(1) << 31, index_t(1) << 31, 2}), LayoutError);
  EXPECT_EQ(Layout<2>::parse("block,* on 1x1", {index_t(1) << 31, index_t(1) << 31}).global_size(),
            index_t(1) << 62);
}

TEST(Checked, ByteText) {
  EXPECT_EQ(byte_text(512), "512 bytes");
  EXPECT_EQ(byte_text(index_t(3) << 29), "1.5 GiB");
  EXPECT_EQ(byte_text(index_t(1) << 43), "8.0 TiB");
}

TEST(Utf8Prefix, NeverCutsACharacter) {
  const std::string e = "\xC3\xA9";                 // é: two bytes
  const std::string euro = "\xE2\x82\xAC";          // €: three bytes
  EXPECT_EQ(detail::utf8_prefix(e + e + e, 3), e);  // not e + half of e
  EXPECT_EQ(detail::utf8_prefix(e + e + e, 4), e + e);
  EXPECT_EQ(detail::utf8_prefix("ab" + euro, 4), "ab");
  EXPECT_EQ(detail::utf8_prefix("ab" + euro, 5), "ab" + euro);
  EXPECT_EQ(detail::utf8_prefix("plain", 3), "pla");
  EXPECT_EQ(detail::utf8_prefix("short", 64), "short");
}

}  // namespace
}  // namespace distarray
