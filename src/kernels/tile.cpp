// Element type facts and their NumPy spellings.
#include "ptodist/kernels/tile.h"

namespace ptodist::kernels {

bool elem_is_float(ElemType t) {
  return t == ElemType::F32 || t == ElemType::F16 || t == ElemType::BF16;
}

std::string_view elem_name(ElemType t) {
  switch (t) {
    case ElemType::F32:
      return "f32";
    case ElemType::F16:
      return "f16";
    case ElemType::BF16:
      return "bf16";
    case ElemType::I32:
      return "i32";
    case ElemType::I16:
      return "i16";
    case ElemType::I8:
      return "i8";
    case ElemType::U8:
      return "u8";
    case ElemType::U16:
      return "u16";
    case ElemType::U32:
      return "u32";
    case ElemType::I64:
      return "i64";
    case ElemType::Bool:
      return "bool";
  }
  return "?";
}

std::string_view npy_descr(ElemType t) {
  switch (t) {
    case ElemType::F32:
      return "<f4";
    case ElemType::F16:
      return "<f2";
    case ElemType::BF16:
      return "<u2";
    case ElemType::I32:
      return "<i4";
    case ElemType::I16:
      return "<i2";
    case ElemType::I8:
      return "|i1";
    case ElemType::U8:
      return "|u1";
    case ElemType::U16:
      return "<u2";  // BF16 shares it: a read of "<u2" gives BF16
    case ElemType::U32:
      return "<u4";
    case ElemType::I64:
      return "<i8";
    case ElemType::Bool:
      return "|b1";
  }
  return "";
}

std::optional<ElemType> elem_type_from_npy_descr(std::string_view d) {
  // One-byte types have no byte order; numpy writes '|' but '<' and '=' also parse there.
  if (d.size() == 3 && (d[0] == '<' || d[0] == '|' || d[0] == '=') && d[2] == '1') {
    if (d[1] == 'i') return ElemType::I8;
    if (d[1] == 'u') return ElemType::U8;
    if (d[1] == 'b') return ElemType::Bool;
  }
  if (d == "<f4") return ElemType::F32;
  if (d == "<f2") return ElemType::F16;
  if (d == "<u2") return ElemType::BF16;
  if (d == "<i4") return ElemType::I32;
  if (d == "<i2") return ElemType::I16;
  if (d == "<i8") return ElemType::I64;
  if (d == "<u4") return ElemType::U32;
  return std::nullopt;
}

}  // namespace ptodist::kernels
