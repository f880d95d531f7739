// The manifest writer: kernels, parameters, memory plan and SDMA needs of an emitted program, as JSON.
#pragma once

#include <string>
#include <vector>

#include "emitter.h"

namespace ptodist::codegen::pto {

std::string manifest_json(const std::string& program, const ChipProfile& profile,
                          const std::vector<KernelInfo>& kernels);

}  // namespace ptodist::codegen::pto
