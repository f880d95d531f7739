// Elementwise kernels (binary, with a scalar, exp, fill) against per-element scalar references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/kernels/elementwise.h"

namespace ptodist::kernels {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A strided [rows, cols] buffer (row stride cols + 3) of one type.
struct Buf {
  ElemType type;
  int rows, cols;
  std::vector<uint8_t> bytes;
  Buf(ElemType t, int r, int c)
      : type(t), rows(r), cols(c), bytes(static_cast<size_t>(r) * (c + 3) * elem_bytes(t)) {}
  TileView view() { return TileView{bytes.data(), rows, cols, cols + 3, type}; }
  void* at(int i, int j) { return view().row_ptr(i) + static_cast<long>(j) * elem_bytes(type); }
  double get(int i, int j) { return load_scalar(type, at(i, j)); }
  void put(int i, int j, double v) { store_scalar(type, at(i, j), v); }
};

// Float inputs with the awkward values mixed in among random ones.
Buf float_input(ElemType t, int rows, int cols, unsigned seed) {
  Buf b(t, rows, cols);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100, 100);
  const float special[] = {0.0f, -0.0f, kInf, -kInf, kNaN, 1.0f, -3.5f, 1e-3f};
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const unsigned k = rng() % 24;
      b.put(i, j, k < 8 ? special[k] : dist(rng));
    }
  }
  return b;
}

float ref_binary(BinaryOp op, float a, float b) {
  switch (op) {
    case BinaryOp::Add:
      return a + b;
    case BinaryOp::Sub:
      return a - b;
    case BinaryOp::Mul:
      return a * b;
    case BinaryOp::Div:
      return a / b;
    case BinaryOp::Maximum:
      return std::isnan(a) || std::isnan(b) ? kNaN : (a > b ? a : b);
    case BinaryOp::Minimum:
      return std::isnan(a) || std::isnan(b) ? kNaN : (a < b ? a : b);
    case BinaryOp::Fmod:  // exact, so the same in every float type
      return std::fmod(a, b);
  }
  return 0;
}

// Expected bits of `v` rounded into type t, compared NaN-insensitively to the payload.
void expect_same(ElemType t, double got, float want, const char* what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what;
    return;
  }
  Buf tmp(t, 1, 1);
  tmp.put(0, 0, want);
  EXPECT_EQ(got, tmp.get(0, 0)) << what << " want " << want;
}

TEST(KernelsElementwise, FloatBinaryOpsMatchScalarReference) {
  const BinaryOp ops[] = {BinaryOp::Add,     BinaryOp::Sub,     BinaryOp::Mul, BinaryOp::Div,
                          BinaryOp::Maximum, BinaryOp::Minimum, BinaryOp::Fmod};
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16}) {
    Buf a = float_input(t, 3, 37, 1), b = float_input(t, 3, 37, 2);
    for (BinaryOp op : ops) {
      Buf out(t, 3, 37);
      binary(op, out.view(), a.view(), b.view());
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 37; ++j) {
          const float want = ref_binary(op, static_cast<float>(a.get(i, j)), static_cast<float>(b.get(i, j)));
          expect_same(t, out.get(i, j), want, elem_name(t).data());
        }
      }
    }
  }
}

TEST(KernelsElementwise, InPlaceOnAnAliasedOperand) {
  Buf a = float_input(ElemType::F16, 2, 20, 3), b = float_input(ElemType::F16, 2, 20, 4);
  Buf expect(ElemType::F16, 2, 20);
  mul(expect.view(), a.view(), b.view());
  mul(a.view(), a.view(), b.view());
  EXPECT_EQ(a.bytes, expect.bytes);
}

TEST(KernelsElementwise, IntegerOpsWrapAndDivideSafely) {
  const int32_t mn = std::numeric_limits<int32_t>::min(), mx = std::numeric_limits<int32_t>::max();
  const std::vector<int32_t> lhs = {mx, mn, 7, -7, 5, mn, 9, 100, 3, -4, 11, 12, 13};
  const std::vector<int32_t> rhs = {1, 1, 2, 2, 0, -1, -3, 7, 3, 4, 5, 6, 7};
  Buf a(ElemType::I32, 1, 13), b(ElemType::I32, 1, 13), out(ElemType::I32, 1, 13);
  for (int j = 0; j < 13; ++j) {
    std::memcpy(a.at(0, j), &lhs[j], 4);
    std::memcpy(b.at(0, j), &rhs[j], 4);
  }
  add(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 0), mn);  // wraps
  EXPECT_EQ(out.get(0, 12), 20);
  sub(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 1), mx);
  mul(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 5), mn);  // MIN * -1 wraps to MIN
  EXPECT_EQ(out.get(0, 12), 91);
  div(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 2), 3);
  EXPECT_EQ(out.get(0, 3), -3);  // toward zero
  EXPECT_EQ(out.get(0, 4), 0);   // x / 0
  EXPECT_EQ(out.get(0, 5), mn);  // MIN / -1
  maximum(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 9), 4);
  EXPECT_EQ(out.get(0, 11), 12);
  minimum(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 6), -3);
  EXPECT_EQ(out.get(0, 10), 5);
}

TEST(KernelsElementwise, NarrowIntegerAndBoolTypes) {
  Buf a(ElemType::I8, 1, 2), b(ElemType::I8, 1, 2), out(ElemType::I8, 1, 2);
  a.put(0, 0, 100), b.put(0, 0, 100), a.put(0, 1, -128), b.put(0, 1, -1);
  add(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 0), -56);  // 200 wraps
  div(out.view(), a.view(), b.view());
  EXPECT_EQ(out.get(0, 1), -128);

  Buf u(ElemType::U8, 1, 1), v(ElemType::U8, 1, 1), uo(ElemType::U8, 1, 1);
  u.put(0, 0, 3), v.put(0, 0, 5);
  sub(uo.view(), u.view(), v.view());
  EXPECT_EQ(uo.get(0, 0), 254);

  Buf p(ElemType::Bool, 1, 4), q(ElemType::Bool, 1, 4), r(ElemType::Bool, 1, 4);
  const int pv[] = {0, 0, 1, 1}, qv[] = {0, 1, 0, 1};
  for (int j = 0; j < 4; ++j) p.put(0, j, pv[j]), q.put(0, j, qv[j]);
  add(r.view(), p.view(), q.view());
  for (int j = 0; j < 4; ++j) EXPECT_EQ(r.get(0, j), pv[j] | qv[j]);
  sub(r.view(), p.view(), q.view());
  for (int j = 0; j < 4; ++j) EXPECT_EQ(r.get(0, j), pv[j] ^ qv[j]);
  mul(r.view(), p.view(), q.view());
  for (int j = 0; j < 4; ++j) EXPECT_EQ(r.get(0, j), pv[j] & qv[j]);
}

TEST(KernelsElementwise, ScalarOps) {
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16}) {
    Buf a = float_input(t, 2, 19, 5), out(t, 2, 19);
    adds(out.view(), a.view(), 0.1);
    for (int j = 0; j < 19; ++j)
      expect_same(t, out.get(1, j), static_cast<float>(a.get(1, j)) + 0.1f, "adds");
    muls(out.view(), a.view(), -2.5);
    for (int j = 0; j < 19; ++j)
      expect_same(t, out.get(0, j), static_cast<float>(a.get(0, j)) * -2.5f, "muls");
    subs(out.view(), a.view(), 0.75);
    for (int j = 0; j < 19; ++j)
      expect_same(t, out.get(1, j), static_cast<float>(a.get(1, j)) - 0.75f, "subs");
    divs(out.view(), a.view(), 3.0);  // a true division: x / 3 differs from x * (1 / 3) in fp32
    for (int j = 0; j < 19; ++j)
      expect_same(t, out.get(0, j), static_cast<float>(a.get(0, j)) / 3.0f, "divs");
  }
  Buf i(ElemType::I32, 1, 3), io(ElemType::I32, 1, 3);
  i.put(0, 0, 10), i.put(0, 1, -10), i.put(0, 2, 2147483647);
  adds(io.view(), i.view(), 2.9);  // the scalar truncates to 2
  EXPECT_EQ(io.get(0, 0), 12);
  EXPECT_EQ(io.get(0, 2), -2147483647);  // wraps
  muls(io.view(), i.view(), -3);
  EXPECT_EQ(io.get(0, 1), 30);
  subs(io.view(), i.view(), 3);
  EXPECT_EQ(io.get(0, 1), -13);
  divs(io.view(), i.view(), 3);  // truncates toward zero, as C and PyPTO's integer division
  EXPECT_EQ(io.get(0, 0), 3);
  EXPECT_EQ(io.get(0, 1), -3);
  divs(io.view(), i.view(), 0);  // x / 0 == 0, as the binary kernel defines it
  EXPECT_EQ(io.get(0, 0), 0);
}

TEST(KernelsElementwise, ExpAccuracyAndEdges) {
  const int n = 4001;
  Buf x(ElemType::F32, 1, n), y(ElemType::F32, 1, n);
  for (int j = 0; j < n; ++j) x.put(0, j, -87.0 + 175.0 * j / (n - 1));
  exp(y.view(), x.view());
  for (int j = 0; j < n; ++j) {
    const double want = std::exp(x.get(0, j));
    EXPECT_NEAR(y.get(0, j), want, 3e-7 * want) << "x=" << x.get(0, j);
  }
  const float edges[] = {kNaN, kInf, -kInf, 89.0f, -110.0f, 0.0f, -0.0f, -100.0f, 88.7f};
  Buf e(ElemType::F32, 1, 9), eo(ElemType::F32, 1, 9);
  for (int j = 0; j < 9; ++j) e.put(0, j, edges[j]);
  exp(eo.view(), e.view());
  EXPECT_TRUE(std::isnan(eo.get(0, 0)));
  EXPECT_EQ(eo.get(0, 1), kInf);
  EXPECT_EQ(eo.get(0, 2), 0.0);
  EXPECT_EQ(eo.get(0, 3), kInf);
  EXPECT_EQ(eo.get(0, 4), 0.0);
  EXPECT_EQ(eo.get(0, 5), 1.0);
  EXPECT_EQ(eo.get(0, 6), 1.0);
  EXPECT_NEAR(eo.get(0, 7), std::exp(-100.0), 1.5e-45);  // subnormal result, one rounding
  EXPECT_NEAR(eo.get(0, 8), std::exp(e.get(0, 8)), 3e-7 * std::exp(e.get(0, 8)));  // near overflow
}

TEST(KernelsElementwise, ExpGivesTheSameBitsInVectorLanesAndTail) {
  Buf x(ElemType::F32, 1, 11), y(ElemType::F32, 1, 11);
  for (int j = 0; j < 11; ++j) x.put(0, j, 0.3217);
  exp(y.view(), x.view());
  for (int j = 1; j < 11; ++j) EXPECT_EQ(y.get(0, j), y.get(0, 0));
}

TEST(KernelsElementwise, ExpOfHalfTypesRoundsOnce) {
  for (ElemType t : {ElemType::F16, ElemType::BF16}) {
    Buf x = float_input(t, 1, 40, 9), y(t, 1, 40);
    for (int j = 0; j < 40; ++j) x.put(0, j, std::fmod(x.get(0, j), 10.0));
    exp(y.view(), x.view());
    for (int j = 0; j < 40; ++j) {
      const double want = std::exp(x.get(0, j));
      if (std::isnan(want)) continue;
      EXPECT_NEAR(y.get(0, j), want, (t == ElemType::F16 ? 1e-3 : 8e-3) * want);
    }
  }
}

TEST(KernelsElementwise, FillConvertsWithTheCastRule) {
  Buf h(ElemType::F16, 2, 9);
  fill(h.view(), 1.5);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 9; ++j) EXPECT_EQ(*static_cast<uint16_t*>(h.at(i, j)), 0x3e00);
  Buf c(ElemType::I8, 1, 3), u(ElemType::U8, 1, 1), b(ElemType::Bool, 1, 1), l(ElemType::I64, 1, 2);
  fill(c.view(), 300);
  EXPECT_EQ(c.get(0, 2), 127);
  fill(u.view(), -3);
  EXPECT_EQ(u.get(0, 0), 0);
  fill(b.view(), 0.2);
  EXPECT_EQ(b.get(0, 0), 1);
  zeros(l.view());
  EXPECT_EQ(l.get(0, 1), 0);
  fill(TileView{nullptr, 0, 4, 4, ElemType::F32}, 1.0);  // empty: touches nothing
}

}  // namespace
}  // namespace ptodist::kernels
