// Implemented by issue 16 (in progress).
#include "perfci/history/results_db.h"
