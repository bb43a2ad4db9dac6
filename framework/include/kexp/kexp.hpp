// All of the kexp SDK: what a plugin author includes.
#pragma once

#include "kexp/config_folder.hpp"
#include "kexp/dataset.hpp"
#include "kexp/device_form.hpp"
#include "kexp/device_memory.hpp"
#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/kernel.hpp"
#include "kexp/linalg.hpp"
#include "kexp/memory_budget.hpp"
#include "kexp/parallel.hpp"
#include "kexp/params.hpp"
#include "kexp/plugin.hpp"
#include "kexp/single.hpp"
#include "kexp/solver.hpp"
#include "kexp/version.hpp"
