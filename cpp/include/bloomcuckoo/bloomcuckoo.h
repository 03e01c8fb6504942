// Every filter class of the kind table (BLOOMCUCKOO_FILTER_KINDS, serialization.h), for code that
// dispatches over the table: the checker, the fuzz target, the kind-table and golden tests. A new
// kind's header goes here (tests/js/kinds.test.js fails until it does).
#ifndef BLOOMCUCKOO_BLOOMCUCKOO_H_
#define BLOOMCUCKOO_BLOOMCUCKOO_H_

#include "bloomcuckoo/binary_fuse_filter.h"
#include "bloomcuckoo/blocked_bloom_filter.h"
#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/counting_bloom_filter.h"
#include "bloomcuckoo/cuckoo_filter.h"
#include "bloomcuckoo/redis_bloom_filter.h"
#include "bloomcuckoo/redis_cuckoo_filter.h"
#include "bloomcuckoo/scalable_bloom_filter.h"
#include "bloomcuckoo/serialization.h"

#endif  // BLOOMCUCKOO_BLOOMCUCKOO_H_
