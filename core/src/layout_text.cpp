#include <distarray/core/error.hpp>
#include <distarray/core/layout_text.hpp>

#include <cctype>
#include <limits>

namespace distarray {

namespace {

/// A cursor over layout text; every error quotes the text and the token at fault.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw LayoutError("layout '" + std::string(text_) + "': " + problem);
  }

  void skip_blanks() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool at_end() {
    skip_blanks();
    return pos_ >= text_.size();
  }
  bool accept(char c) {
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::size_t pos() const { return pos_; }
  void rewind(std::size_t pos) { pos_ = pos; }
  std::string_view slice(std::size_t from) const { return text_.substr(from, pos_ - from); }

  /// The next run of letters, digits, '*', '(' ')' and '-' — what a user would call a token.
  std::string_view next_token() {
    skip_blanks();
    const std::size_t from = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '*' || c == '(' || c == ')' || c == '-' ||
            c == '_' || c == '@'))
        break;
      ++pos_;
    }
    if (pos_ == from && pos_ < text_.size()) ++pos_;  // a lone punctuation character
    return text_.substr(from, pos_ - from);
  }

  /// Letters only (a kind name or the keyword "on"), lower-cased.
  std::string word() {
    skip_blanks();
    std::string w;
    while (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_])))
      w += char(std::tolower(static_cast<unsigned char>(text_[pos_++])));
    return w;
  }

  /// A decimal number in [0, max]; nothing consumed and false if none is here.
  bool number(long long max, long long& value) {
    skip_blanks();
    const std::size_t from = pos_;
    long long v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_++] - '0';
      if (v > (max - digit) / 10) {
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        fail("number '" + std::string(slice(from)) + "' is too large");
      }
      v = v * 10 + digit;
    }
    value = v;
    return pos_ > from;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

DistSpec parse_dist(Scanner& s) {
  s.skip_blanks();
  const std::size_t from = s.pos();
  if (s.accept('*')) return DistSpec{DistKind::collapsed, 0, "*"};
  const std::string kind = s.word();
  if (kind != "block" && kind != "cyclic") {
    s.rewind(from);
    const std::string token(s.next_token());
    s.fail(token.empty() ? "expected a distribution (block, block(m), cyclic, cyclic(b) or *)"
                         : "unknown distribution '" + token + "'");
  }
  if (!s.accept('('))
    return DistSpec{kind == "block" ? DistKind::block : DistKind::cyclic, 0, std::string(s.slice(from))};
  long long size = 0;
  const bool has_number = s.number(std::numeric_limits<index_t>::max(), size);
  if (!has_number || !s.accept(')')) {
    std::string token(s.slice(from));
    token += s.next_token();
    s.fail("expected '" + kind + "(<positive integer>)', got '" + token + "'");
  }
  const std::string token(s.slice(from));
  if (size < 1) s.fail("block size must be >= 1 in '" + token + "'");
  return DistSpec{kind == "block" ? DistKind::block_m : DistKind::cyclic_b, size, token};
}

}  // namespace

Dist1D DistSpec::make(index_t n, int p) const {
  switch (kind) {
    case DistKind::block:
      return Dist1D::block(n, p);
    case DistKind::block_m:
      return Dist1D::block_m(n, p, parameter);
    case DistKind::cyclic:
      return Dist1D::cyclic(n, p);
    case DistKind::cyclic_b:
      return Dist1D::cyclic_b(n, p, parameter);
    case DistKind::collapsed:
      if (p != 1)
        throw LayoutError("'*' needs a grid extent of 1 in its dimension, got " + std::to_string(p));
      return Dist1D::collapsed(n);
  }
  throw LayoutError("unknown distribution kind in '" + token + "'");
}

LayoutSpec parse_layout_spec(std::string_view text) {
  Scanner s(text);
  LayoutSpec spec;
  spec.text = std::string(text);
  if (s.at_end()) s.fail("empty layout (expected e.g. 'block,* on 4x1')");
  do {
    spec.dists.push_back(parse_dist(s));
  } while (s.accept(','));

  s.skip_blanks();
  const std::size_t before_on = s.pos();
  if (s.word() != "on") {
    if (s.at_end()) s.fail("missing 'on <grid>' (e.g. 'on 2x2')");
    s.rewind(before_on);
    const std::string token(s.next_token());
    s.fail("unexpected '" + token + "', expected ',' or 'on <grid>'");
  }
  long long extent = 0;
  do {
    s.skip_blanks();
    const std::size_t from = s.pos();
    if (!s.number(std::numeric_limits<int>::max(), extent)) {
      const std::string token(s.next_token());
      s.fail("grid extent expected after 'on', got '" + token + "'");
    }
    if (extent < 1) s.fail("grid extent '" + std::string(s.slice(from)) + "' must be >= 1");
    spec.grid.push_back(int(extent));
  } while (s.accept('x') || s.accept('X'));
  if (s.accept('@')) {
    long long first = 0;
    if (!s.number(std::numeric_limits<int>::max(), first)) {
      const std::string token(s.next_token());
      s.fail("first rank expected after '@', got '" + token + "'");
    }
    spec.first_rank = int(first);
  }
  if (!s.at_end()) {
    const std::string token(s.next_token());
    s.fail("unexpected '" + token + "' after the grid");
  }
  return spec;
}

std::vector<index_t> parse_shape(std::string_view text) {
  Scanner s(text);
  std::vector<index_t> shape;
  do {
    long long n = 0;
    if (!s.number(std::numeric_limits<index_t>::max(), n)) {
      const std::string token(s.next_token());
      throw LayoutError("shape '" + std::string(text) + "': expected an extent, got '" + token + "'");
    }
    shape.push_back(n);
  } while (s.accept('x') || s.accept('X'));
  if (!s.at_end()) {
    const std::string token(s.next_token());
    throw LayoutError("shape '" + std::string(text) + "': unexpected '" + token + "'");
  }
  return shape;
}

}  // namespace distarray
