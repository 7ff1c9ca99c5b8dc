// Implemented by issue 16 (in progress).
#include "perfci/history/run_record.h"
