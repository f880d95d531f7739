// The manifest writer: kernels, parameters, memory plan and SDMA needs of an emitted program, as JSON.
#pragma once

#include <string>
#include <vector>

#include "emitter.h"

namespace ptodist::codegen::pto {

// A Group function: the kernels it launches together on one core cluster (its AIC and AIV kernels).
struct GroupInfo {
  std::string name;
  std::vector<std::string> kernels;
};

std::string manifest_json(const std::string& program, const ChipProfile& profile,
                          const std::vector<KernelInfo>& kernels, const std::vector<GroupInfo>& groups = {});

}  // namespace ptodist::codegen::pto
