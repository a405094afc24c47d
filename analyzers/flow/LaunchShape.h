// LaunchShape: what the thread model assumes of a kernel's launch (the CTA shape, the grid,
// the cluster), the coordinates of one thread in it, and which coordinates a function reads.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "model/Module.h"

namespace ptx::flow {

// The two seeds a proof by concrete threads evaluates under (flow::ThreadModel): a fact that
// holds under both holds for every value of the uniform inputs, up to a negligible chance.
constexpr std::uint64_t kProofSeeds[] = {0x1234567, 0x7654321};

struct ThreadCoordinates {
  std::array<std::uint32_t, 3> tid{};
  std::array<std::uint32_t, 3> ctaid{};
};

// What the model assumes of the launch: the CTA shape from .reqntid/.maxntid when the
// function declares one, else 64 x 1 x 1 threads (two warps), and a grid of 4 x 1 x 1 CTAs.
struct LaunchShape {
  std::array<std::uint32_t, 3> ntid{64, 1, 1};
  std::array<std::uint32_t, 3> nctaid{4, 1, 1};
  // CTAs per cluster: .reqnctapercluster when declared, else 2 x 1 x 1 (the smallest cluster
  // in which CTAs can reach each other's shared memory).
  std::array<std::uint32_t, 3> cluster{2, 1, 1};
  bool declared = false;  // ntid comes from .reqntid/.maxntid.
};

// The launch shape assumed for one function.
LaunchShape launchShapeOf(std::string_view text, const Module& module, std::size_t function);

// Which thread and CTA coordinates a function reads.
struct CoordinateReads {
  // %ctaid, %nctaid, %cluster_ctarank or %clusterid: written for a grid of several CTAs.
  bool cta = false;
  // %tid, %laneid or %warpid: otherwise every thread does the same, which only makes sense
  // for a launch of one thread (as test kernels are).
  bool thread = false;
  std::uint8_t ctaDimensions = 0;  // Which of %ctaid.x, .y, .z (bits 0, 1, 2).
};
CoordinateReads coordinateReadsOf(std::string_view text, const Module& module, std::size_t function);

// The component a special register's suffix selects: "" and ".x" 0, ".y" 1, ".z" 2, else
// none (-1).
int componentOf(std::string_view suffix);

}  // namespace ptx::flow
