#pragma once
namespace scalebook {
enum class PipelineSchedule { gpipe, one_f_one_b };
}  // namespace scalebook
