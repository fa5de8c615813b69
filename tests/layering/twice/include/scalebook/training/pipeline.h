#pragma once
#include <cstdint>
namespace scalebook {
struct Later;
enum class PipelineSchedule : std::uint8_t { naive, gpipe };
}  // namespace scalebook
