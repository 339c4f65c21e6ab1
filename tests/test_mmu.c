/*
 * test_mmu.c - the pure shared-buffer core (mmu.h): admission order,
 * dynamic-threshold fixed point, release order, XOFF/XON points, lossy
 * egress threshold.
 */
#include <check.h>
#include <stdlib.h>

#include "models/core/mmu.h"
#include "testlib.h"

#define FRAME 4158

static struct mmu_params params(int64_t pool, int32_t th)
{
	return (struct mmu_params){ .pool_bytes = pool, .reserved_bytes = FRAME,
				    .xon_offset_bytes = 2 * FRAME, .dynamic_th = th,
				    .lossy_dynamic_th = 3 };
}

START_TEST(reserved_then_shared_then_headroom_then_drop)
{
	struct mmu_params p = params(100 * FRAME, 0);
	struct mmu_pool pool = {0};
	struct mmu_pg g = { .headroom_bytes = 2 * FRAME };
	ck_assert_int_eq(mmu_admit(&p, &pool, &g, FRAME, 1, 0), MMU_RESERVED);
	ck_assert(!mmu_wants_xoff(&p, &pool, &g));
	/* alpha 1: shared while shared + b <= pool - used: 50 frames fit */
	int shared = 0;
	while (mmu_admit(&p, &pool, &g, FRAME, 1, 0) == MMU_SHARED)
		shared++;
	ck_assert_int_eq(shared, 50);
	/* the refused frame went to headroom; XOFF now */
	ck_assert_int_eq(g.headroom, FRAME);
	ck_assert(mmu_wants_xoff(&p, &pool, &g));
	ck_assert_int_eq(mmu_admit(&p, &pool, &g, FRAME, 1, 0), MMU_HEADROOM);
	ck_assert_int_eq(mmu_admit(&p, &pool, &g, FRAME, 1, 0), MMU_DROP_HEADROOM);
	ck_assert_int_eq(g.peak_headroom, 2 * FRAME);
	/* release: headroom first, then shared, then reserved */
	mmu_release(&pool, &g, FRAME);
	ck_assert_int_eq(g.headroom, FRAME);
	ck_assert(!mmu_may_xon(&p, &pool, &g));
	mmu_release(&pool, &g, 2 * FRAME);
	ck_assert_int_eq(g.headroom, 0);
	ck_assert_int_eq(g.shared, 49 * FRAME);
	ck_assert_int_eq(pool.used, 49 * FRAME);
	/* XON needs shared + xon_offset < threshold = pool - used */
	ck_assert(!mmu_may_xon(&p, &pool, &g));
	mmu_release(&pool, &g, 2 * FRAME);
	ck_assert(mmu_may_xon(&p, &pool, &g)); /* 47 + 2 < 53 */
	mmu_release(&pool, &g, 48 * FRAME);
	ck_assert_int_eq(g.shared + g.headroom + g.reserved + pool.used, 0);
}
END_TEST

/* S PGs filled in turn settle at alpha B / (1 + alpha S), within a frame */
START_TEST(dynamic_threshold_fixed_point)
{
	static const int32_t ths[] = { -3, 0, 3 };
	static const int ss[] = { 1, 2, 8 };
	const int64_t B = 16000000;
	for (int a = 0; a < 3; a++)
		for (int k = 0; k < 3; k++) {
			int S = ss[k];
			struct mmu_params p = params(B, ths[a]);
			p.reserved_bytes = 0;
			struct mmu_pool pool = {0};
			struct mmu_pg g[8] = {{0}};
			for (int open = 1; open;) {
				open = 0;
				for (int i = 0; i < S; i++)
					if (mmu_admit(&p, &pool, &g[i], 1000, 1, 0) == MMU_SHARED)
						open = 1;
			}
			double alpha = ths[a] < 0 ? 1.0 / (1 << -ths[a]) : (double)(1 << ths[a]);
			double x = alpha * (double)B / (1 + alpha * S);
			for (int i = 0; i < S; i++)
				ck_assert_msg(g[i].shared <= x + 1000 && g[i].shared >= x - FRAME,
					      "alpha %g S %d: PG %d holds %lld, expected %.0f", alpha,
					      S, i, (long long)g[i].shared, x);
		}
}
END_TEST

START_TEST(lossy_limited_at_egress_only)
{
	struct mmu_params p = params(80 * FRAME, 0);
	struct mmu_pool pool = {0};
	struct mmu_pg g = {0};
	/* lossy: no ingress limit beyond the pool; egress alpha 8:
	 * q + b <= 8 (B - used) */
	int64_t q = 0;
	int n = 0;
	while (mmu_admit(&p, &pool, &g, FRAME, 0, q) != MMU_DROP_EGRESS) {
		q += FRAME;
		n++;
	}
	/* q <= 8 (B - q + reserved share) -> about 8/9 of the pool */
	ck_assert_int_ge(n, 71);
	ck_assert_int_le(n, 73);
	ck_assert_int_eq(g.headroom, 0);
}
END_TEST

static Suite *make_mmu_suite(void)
{
	Suite *s = suite_create("mmu");
	TCase *tc = tcase_create("admission");
	tcase_add_test(tc, reserved_then_shared_then_headroom_then_drop);
	tcase_add_test(tc, dynamic_threshold_fixed_point);
	tcase_add_test(tc, lossy_limited_at_egress_only);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_mmu_suite());
}
