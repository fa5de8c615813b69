#include "scalebook/hardware/json.h"

namespace scalebook {

Json to_json(const Chip& chip) {
  Json peaks = Json::object();
  for (const PeakFlops& p : chip.peaks) peaks[to_string(p.dtype)] = p.flops_per_s;
  Json notes = Json::object();
  for (const SourceNote& n : chip.notes) notes[n.field] = n.note;
  Json fields = Json::array();
  for (const ChipField& f : chip_fields(chip)) {
    fields.push_back({{"name", f.name},
                      {"value", to_json(f.value)},
                      {"unit", f.unit},
                      {"description", f.description},
                      {"note", f.note}});
  }
  return {{"id", chip.id},
          {"name", chip.name},
          {"vendor", chip.vendor},
          {"peak_flops", peaks},
          {"hbm_bandwidth", chip.hbm_bandwidth},
          {"hbm_capacity", chip.hbm_capacity},
          {"comm_bandwidth", chip.comm_bandwidth},
          {"comm_link", chip.comm_link},
          {"notes", notes},
          {"fields", fields}};
}

}  // namespace scalebook
