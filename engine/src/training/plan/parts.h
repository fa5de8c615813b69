#pragma once
// Internal to the training-plan calculator: the planner's outputs, its by-pods table and its
// worked steps (plan/pods_report.cpp), kept apart from the single-count questions.
#include <vector>

#include "../step/parts.h"
#include "scalebook/core/result_builder.h"
#include "scalebook/core/schema.h"
#include "scalebook/training/plan.h"

namespace scalebook::plan_parts {

std::vector<OutputSpec> pods_outputs();
TableSpec pods_table();
// Sets pods_outputs() and the by_pods table, in schema order, and their steps when explaining.
void report_pods(const PlanRequest& q, const PodsPlan& pp, ResultBuilder& out);
// The mesh of plan p for request q as text ("4096-way FSDP (1024 data x 4 sequence) on 4096
// chips"), written in place: the planner tries many counts, and only the reported plans' meshes
// are spelt out.
void add_mesh(const PlanRequest& q, const TrainingPlan& p, training_parts::Line& out);

}  // namespace scalebook::plan_parts
