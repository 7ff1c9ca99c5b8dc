#include "engine/func/sql_printf.h"

#include <cstdint>
#include <cstring>

#include "engine/func/cast.h"
#include "engine/func/text_format.h"
#include "engine/func/utf8.h"

namespace engine::func {
namespace {

constexpr int kMaxWidth = 100000;

enum class Conv {
  kDecimal,
  kRadix,
  kOrdinal,
  kFloat,
  kExp,
  kGeneric,
  kString,
  kCharX,
  kSqlEscape,
  kSqlEscape2,
  kSqlEscape3,
  kSize,
  kPercent,
  kPointer,
  kInvalid
};

struct ConvInfo {
  char fmttype;
  uint8_t base;
  bool is_signed;
  Conv type;
  uint8_t charset;  // offset into kDigits: 0 upper case, 16 lower case
  uint8_t prefix;   // offset into kPrefix
};

constexpr char kDigits[] = "0123456789ABCDEF0123456789abcdef";
constexpr char kPrefix[] = "-x0\000X0";
constexpr ConvInfo kConvs[] = {
    {'d', 10, true, Conv::kDecimal, 0, 0},    {'s', 0, false, Conv::kString, 0, 0},
    {'g', 0, true, Conv::kGeneric, 30, 0},    {'z', 0, false, Conv::kString, 0, 0},
    {'q', 0, false, Conv::kSqlEscape, 0, 0},  {'Q', 0, false, Conv::kSqlEscape2, 0, 0},
    {'w', 0, false, Conv::kSqlEscape3, 0, 0}, {'c', 0, false, Conv::kCharX, 0, 0},
    {'o', 8, false, Conv::kRadix, 0, 2},      {'u', 10, false, Conv::kDecimal, 0, 0},
    {'x', 16, false, Conv::kRadix, 16, 1},    {'X', 16, false, Conv::kRadix, 0, 4},
    {'f', 0, true, Conv::kFloat, 0, 0},       {'e', 0, true, Conv::kExp, 30, 0},
    {'E', 0, true, Conv::kExp, 14, 0},        {'G', 0, true, Conv::kGeneric, 14, 0},
    {'i', 10, true, Conv::kDecimal, 0, 0},    {'n', 0, false, Conv::kSize, 0, 0},
    {'%', 0, false, Conv::kPercent, 0, 0},    {'p', 16, false, Conv::kPointer, 0, 1},
    {'r', 10, true, Conv::kOrdinal, 0, 0},
};

class Args {
 public:
  Args(const Value* args, int n) : args_(args), n_(n) {}
  int64_t Int() { return used_ < n_ ? IntValue(args_[used_++]) : 0; }
  double Real() { return used_ < n_ ? RealValue(args_[used_++]) : 0.0; }
  // The argument's text, or nullopt for NULL / a missing argument. The
  // text ends at its first NUL, as a C string does.
  bool Text(std::string_view* out) {
    if (used_ >= n_) return false;
    const Value& v = args_[used_++];
    if (v.is_null()) return false;
    if (v.type() == ValueType::kInteger) {
      scratch_ = IntegerToText(v.as_int());
      *out = scratch_;
    } else if (v.type() == ValueType::kReal) {
      scratch_ = RealToText(v.as_real());
      *out = scratch_;
    } else {
      *out = v.as_text().substr(0, CStringLength(v.data(), v.size()));
    }
    return true;
  }

 private:
  const Value* args_;
  int n_;
  int used_ = 0;
  std::string scratch_;
};

int ClampWidth(int64_t w) { return w > kMaxWidth ? kMaxWidth : static_cast<int>(w); }

}  // namespace

bool SqlPrintf(std::string_view format, const Value* argv, int nargs, std::string* out) {
  bool appended = false;
  Args args(argv, nargs);
  const char* fmt = format.data();
  const char* const fmt_end = fmt + CStringLength(format.data(), format.size());
  auto at = [&](const char* p) -> char { return p < fmt_end ? *p : '\0'; };
  std::string buf;
  for (; fmt < fmt_end; ++fmt) {
    char c = *fmt;
    if (c != '%') {
      const char* start = fmt;
      do {
        fmt++;
      } while (fmt < fmt_end && *fmt != '%');
      out->append(start, static_cast<size_t>(fmt - start));
      appended = true;
      if (fmt >= fmt_end) break;
    }
    if ((c = at(++fmt)) == 0) {
      out->push_back('%');
      appended = true;
      break;
    }
    bool left = false, alt = false, alt2 = false, zeropad = false;
    char sign = 0, thousand = 0;
    int width = 0;
    int precision = -1;
    bool done = false;
    do {
      switch (c) {
        case '-':
          left = true;
          break;
        case '+':
          sign = '+';
          break;
        case ' ':
          sign = ' ';
          break;
        case '#':
          alt = true;
          break;
        case '!':
          alt2 = true;
          break;
        case '0':
          zeropad = true;
          break;
        case ',':
          thousand = ',';
          break;
        case 'l':
          c = at(++fmt);
          if (c == 'l') c = at(++fmt);
          done = true;
          break;
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
        case '8':
        case '9': {
          uint64_t wx = static_cast<uint64_t>(c - '0');
          while ((c = at(++fmt)) >= '0' && c <= '9') {
            wx = wx * 10 + static_cast<uint64_t>(c - '0');
            if (wx > 0x7fffffff) wx = 0x7fffffff;
          }
          width = ClampWidth(static_cast<int64_t>(wx));
          if (c != '.' && c != 'l') {
            done = true;
          } else {
            fmt--;
          }
          break;
        }
        case '*': {
          int64_t w = static_cast<int>(args.Int());
          if (w < 0) {
            left = true;
            w = w >= -2147483647 ? -w : 0;
          }
          width = ClampWidth(w);
          if ((c = at(fmt + 1)) != '.' && c != 'l') {
            c = at(++fmt);
            done = true;
          }
          break;
        }
        case '.': {
          c = at(++fmt);
          if (c == '*') {
            int64_t p = static_cast<int>(args.Int());
            if (p < 0) p = p >= -2147483647 ? -p : -1;
            precision = p < 0 ? -1 : ClampWidth(p);
            c = at(++fmt);
          } else {
            uint64_t px = 0;
            while (c >= '0' && c <= '9') {
              px = px * 10 + static_cast<uint64_t>(c - '0');
              if (px > 0x7fffffff) px = 0x7fffffff;
              c = at(++fmt);
            }
            precision = ClampWidth(static_cast<int64_t>(px));
          }
          if (c == 'l') {
            --fmt;
          } else {
            done = true;
          }
          break;
        }
        default:
          done = true;
          break;
      }
    } while (!done && (c = at(++fmt)) != 0);

    const ConvInfo* info = nullptr;
    for (const ConvInfo& ci : kConvs) {
      if (c == ci.fmttype) {
        info = &ci;
        break;
      }
    }
    if (info == nullptr) return appended;
    buf.clear();
    Conv type = info->type;
    switch (type) {
      case Conv::kPointer:
      case Conv::kOrdinal:
      case Conv::kRadix:
      case Conv::kDecimal: {
        if (type != Conv::kDecimal) thousand = 0;
        uint64_t value;
        char prefix = 0;
        if (info->is_signed) {
          const int64_t v = args.Int();
          if (v < 0) {
            value = ~static_cast<uint64_t>(v) + 1;
            prefix = '-';
          } else {
            value = static_cast<uint64_t>(v);
            prefix = sign;
          }
        } else {
          value = static_cast<uint64_t>(args.Int());
        }
        if (value == 0) alt = false;
        if (zeropad && precision < width - (prefix != 0)) precision = width - (prefix != 0);
        // Built backwards, then reversed.
        std::string rev;
        if (type == Conv::kOrdinal) {
          static const char kOrd[] = "thstndrd";
          int x = static_cast<int>(value % 10);
          if (x >= 4 || (value / 10) % 10 == 1) x = 0;
          rev.push_back(kOrd[x * 2 + 1]);
          rev.push_back(kOrd[x * 2]);
        }
        const size_t suffix = rev.size();
        do {
          rev.push_back(kDigits[info->charset + value % info->base]);
          value /= info->base;
        } while (value > 0);
        int length = static_cast<int>(rev.size() - suffix);
        while (precision > length) {
          rev.push_back('0');
          length++;
        }
        if (thousand) {
          // Only %d and %i group digits, so there is no ordinal suffix here.
          const std::string digits(rev.rbegin(), rev.rend());
          std::string grouped;
          for (size_t i = 0; i < digits.size(); i++) {
            grouped.push_back(digits[i]);
            const size_t left_over = digits.size() - 1 - i;
            if (left_over > 0 && left_over % 3 == 0) grouped.push_back(thousand);
          }
          rev.assign(grouped.rbegin(), grouped.rend());
        }
        if (prefix) rev.push_back(prefix);
        if (alt && info->prefix) {
          for (const char* pre = &kPrefix[info->prefix]; *pre; pre++) rev.push_back(*pre);
        }
        buf.assign(rev.rbegin(), rev.rend());
        break;
      }
      case Conv::kFloat:
      case Conv::kExp:
      case Conv::kGeneric: {
        FloatFormat f;
        f.conversion = c;
        f.precision = precision;
        f.alt_form = alt;
        f.alt_form2 = alt2;
        f.sign = sign;
        AppendFloat(args.Real(), f, &buf);
        const int length = static_cast<int>(buf.size());
        const bool special = buf.find("Inf") != std::string::npos || buf == "NaN";
        if (zeropad && !left && length < width && !special) {
          const bool has_prefix = buf[0] == '-' || buf[0] == '+' || buf[0] == ' ';
          buf.insert(has_prefix ? 1 : 0, static_cast<size_t>(width - length), '0');
        }
        break;
      }
      case Conv::kSize:
        width = 0;
        break;
      case Conv::kPercent:
        buf = "%";
        break;
      case Conv::kCharX: {
        std::string_view s;
        std::string ch;
        if (args.Text(&s) && !s.empty()) {
          size_t len = 1;
          if ((static_cast<unsigned char>(s[0]) & 0xc0) == 0xc0) {
            while (len < 4 && len < s.size() &&
                   (static_cast<unsigned char>(s[len]) & 0xc0) == 0x80) {
              len++;
            }
          }
          ch.assign(s.substr(0, len));
        } else {
          ch.assign(1, '\0');
        }
        if (precision > 1) {
          width -= precision - 1;
          if (width > 1 && !left) {
            out->append(static_cast<size_t>(width - 1), ' ');
            width = 0;
          }
          for (int i = 1; i < precision; i++) out->append(ch);
        }
        buf = ch;
        alt2 = true;
        break;
      }
      case Conv::kString: {
        std::string_view s;
        if (!args.Text(&s)) s = "";
        if (precision >= 0) {
          if (alt2) {
            const auto* p = reinterpret_cast<const unsigned char*>(s.data());
            const auto* end = p + s.size();
            const auto* z = p;
            while (precision-- > 0 && z < end) z = Utf8Skip(z, end);
            s = s.substr(0, static_cast<size_t>(z - p));
          } else if (static_cast<size_t>(precision) < s.size()) {
            s = s.substr(0, static_cast<size_t>(precision));
          }
        }
        buf.assign(s);
        break;
      }
      case Conv::kSqlEscape:
      case Conv::kSqlEscape2:
      case Conv::kSqlEscape3: {
        const char q = type == Conv::kSqlEscape3 ? '"' : '\'';
        std::string_view s;
        const bool is_null = !args.Text(&s);
        if (is_null) s = type == Conv::kSqlEscape2 ? "NULL" : "(NULL)";
        size_t i = 0;
        for (int64_t k = precision; k != 0 && i < s.size(); i++, k--) {
          if (alt2 && (static_cast<unsigned char>(s[i]) & 0xc0) == 0xc0) {
            while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xc0) == 0x80) i++;
          }
        }
        const bool quote = !is_null && type == Conv::kSqlEscape2;
        if (quote) buf.push_back(q);
        for (size_t j = 0; j < i; j++) {
          buf.push_back(s[j]);
          if (s[j] == q) buf.push_back(q);
        }
        if (quote) buf.push_back(q);
        break;
      }
      case Conv::kInvalid:
        return appended;
    }
    if (alt2 && width > 0 &&
        (type == Conv::kString || type == Conv::kCharX || type == Conv::kSqlEscape ||
         type == Conv::kSqlEscape2 || type == Conv::kSqlEscape3)) {
      for (char ch : buf) {
        if ((static_cast<unsigned char>(ch) & 0xc0) == 0x80) width++;
      }
    }
    const int pad = width - static_cast<int>(buf.size());
    if (pad > 0 && !left) out->append(static_cast<size_t>(pad), ' ');
    out->append(buf);
    if (pad > 0 && left) out->append(static_cast<size_t>(pad), ' ');
    appended = true;
  }
  return appended;
}

}  // namespace engine::func
