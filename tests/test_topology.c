/*
 * test_topology.c - wiring and routing in closed form: node counts, cable
 * symmetry, every route reaches its host in the expected number of hops,
 * the ECMP sets adaptive routing chooses from.
 */
#include <check.h>
#include <stdlib.h>

#include "models/base/rng.h"
#include "models/core/topology.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

static struct scenario *scn_new(enum scn_topo_kind kind)
{
	struct scenario *s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	s->topo = kind;
	return s;
}

/* following topo_peer twice returns to the same port */
static void check_symmetry(const struct topo *t)
{
	for (uint32_t s = 0; s < t->switches; s++)
		for (uint16_t p = 0; p < topo_ports(t, s); p++) {
			struct topo_end e = topo_peer(t, s, p);
			if (e.tier == TOPO_HOST) {
				struct topo_end up = topo_host_uplink(t, e.node);
				ck_assert_uint_eq(up.node, s);
				ck_assert_uint_eq(up.port, p);
				ck_assert(e.node < t->hosts);
			} else {
				ck_assert(e.node < t->switches);
				struct topo_end back = topo_peer(t, e.node, e.port);
				ck_assert_uint_eq(back.node, s);
				ck_assert_uint_eq(back.port, p);
				ck_assert_int_eq(topo_tier_of(t, e.node), e.tier);
			}
		}
}

/* walk src -> dst through topo_route; hop count must match topo_hops */
static void check_routes(const struct topo *t)
{
	uint64_t x = 99;
	for (uint32_t src = 0; src < t->hosts; src++)
		for (uint32_t dst = 0; dst < t->hosts; dst++) {
			if (src == dst)
				continue;
			struct topo_end at = topo_host_uplink(t, src);
			uint32_t hops = 0;
			for (;;) {
				hops++;
				ck_assert_uint_le(hops, 5);
				x = rng_mix(x);
				uint16_t out = topo_route(t, at.node, dst, x);
				ck_assert_uint_lt(out, topo_ports(t, at.node));
				struct topo_end next = topo_peer(t, at.node, out);
				if (next.tier == TOPO_HOST) {
					ck_assert_uint_eq(next.node, dst);
					break;
				}
				at = next;
			}
			ck_assert_uint_eq(hops, topo_hops(t, src, dst));
		}
}

START_TEST(leaf_spine_counts_and_routes)
{
	struct scenario *s = scn_new(SCN_TOPO_LEAF_SPINE);
	s->spines = 3;
	s->leaves = 5;
	s->hosts_per_leaf = 4;
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	ck_assert_uint_eq(t.hosts, 20);
	ck_assert_uint_eq(t.switches, 8);
	ck_assert_uint_eq(topo_ports(&t, 0), 4 + 3);
	ck_assert_uint_eq(topo_ports(&t, 5), 5);
	ck_assert_uint_eq(topo_hops(&t, 0, 3), 1);
	ck_assert_uint_eq(topo_hops(&t, 0, 4), 3);
	char name[16];
	ck_assert_str_eq(topo_switch_name(&t, 6, name, sizeof(name)), "spine1");
	ck_assert_str_eq(topo_switch_name(&t, 4, name, sizeof(name)), "leaf4");
	check_symmetry(&t);
	check_routes(&t);
	scenario_free(s);
	free(s);
}
END_TEST

START_TEST(fat_tree_counts_and_routes)
{
	static const uint32_t ks[] = { 2, 4, 6, 8 };
	for (unsigned i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		struct scenario *s = scn_new(SCN_TOPO_FAT_TREE);
		s->k = ks[i];
		struct topo t;
		struct topo_shape shape = scenario_topo_shape(s);
		topo_init(&t, &shape);
		uint32_t k = ks[i];
		ck_assert_uint_eq(t.hosts, k * k * k / 4);
		ck_assert_uint_eq(t.switches, 5 * k * k / 4);
		check_symmetry(&t);
		check_routes(&t);
		if (k == 4) {
			ck_assert_uint_eq(topo_hops(&t, 0, 1), 1);  /* same edge */
			ck_assert_uint_eq(topo_hops(&t, 0, 2), 3);  /* same pod */
			ck_assert_uint_eq(topo_hops(&t, 0, 4), 5);  /* other pod */
			char name[16];
			ck_assert_str_eq(topo_switch_name(&t, 16, name, sizeof(name)), "core0");
			ck_assert_str_eq(topo_switch_name(&t, 9, name, sizeof(name)), "agg1");
		}
		scenario_free(s);
		free(s);
	}
}
END_TEST

START_TEST(star_counts_and_routes)
{
	struct scenario *s = scn_new(SCN_TOPO_STAR);
	s->star_hosts = 17;
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	ck_assert_uint_eq(t.hosts, 17);
	ck_assert_uint_eq(t.switches, 1);
	ck_assert_uint_eq(topo_ports(&t, 0), 17);
	check_symmetry(&t);
	check_routes(&t);
	scenario_free(s);
	free(s);
}
END_TEST

START_TEST(cable_delay_is_5ns_per_metre)
{
	struct scenario *s = scn_new(SCN_TOPO_LEAF_SPINE);
	s->host_cable_mm = 3000;
	s->fabric_cable_mm = 100500;
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	ck_assert_int_eq(t.host_prop_ps, 15000);
	ck_assert_int_eq(t.fabric_prop_ps, 502500);
	scenario_free(s);
	free(s);
}
END_TEST

/* a failure pattern for topo_leads: every port whose (switch, port)
 * hashes to a multiple of 5 is down */
static int some_down(const void *ctx, uint32_t sw, uint16_t port)
{
	(void)ctx;
	return rng_mix(((uint64_t)sw << 16) | port) % 5 == 0;
}

/*
 * Adaptive routing's candidates (topo_ecmp): topo_route(h) is the
 * (h % n)-th port of the set, for every switch, host and hash; and with
 * links down, the port topo_route_avoiding picks is one that topo_leads
 * accepts, and it finds none exactly when topo_leads accepts none.
 */
static void check_ecmp_sets(const struct topo *t)
{
	for (uint32_t sw = 0; sw < t->switches; sw++)
		for (uint32_t dst = 0; dst < t->hosts; dst++) {
			uint16_t first = 0, ok = 0;
			const uint16_t *list;
			uint16_t n = topo_ecmp(t, sw, dst, &first, &list);
			ck_assert_uint_ge(n, 1);
			for (uint64_t h = 0; h < 2u * n + 3; h++) {
				uint16_t k = (uint16_t)(h % n);
				ck_assert_uint_eq(topo_route(t, sw, dst, h), list ? list[k] : first + k);
			}
			for (uint16_t k = 0; k < n; k++)
				ok += (uint16_t)topo_leads(t, sw, list ? list[k] : (uint16_t)(first + k),
							   dst, some_down, NULL);
			for (uint64_t h = 0; h < 4; h++) {
				uint16_t r = topo_route_avoiding(t, sw, dst, h, some_down, NULL);
				if (!ok) {
					ck_assert_uint_eq(r, TOPO_NO_ROUTE);
					continue;
				}
				ck_assert_uint_ne(r, TOPO_NO_ROUTE);
				ck_assert(topo_leads(t, sw, r, dst, some_down, NULL));
			}
		}
}

START_TEST(ecmp_sets_match_routes)
{
	struct scenario *s = scn_new(SCN_TOPO_LEAF_SPINE);
	s->spines = 3;
	s->leaves = 4;
	s->hosts_per_leaf = 2;
	s->uplinks_per_spine = 2;
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	check_ecmp_sets(&t);
	s->topo = SCN_TOPO_FAT_TREE;
	s->k = 6;
	shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	check_ecmp_sets(&t);
	s->topo = SCN_TOPO_RAIL;
	s->units = 2;
	s->servers_per_unit = 2;
	s->gpus_per_server = 4;
	s->spines = 2;
	s->uplinks_per_spine = 1;
	shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	check_ecmp_sets(&t);
	scenario_free(s);
	free(s);
}
END_TEST

static Suite *make_topology_suite(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("wiring");
	tcase_add_test(tc, leaf_spine_counts_and_routes);
	tcase_add_test(tc, fat_tree_counts_and_routes);
	tcase_add_test(tc, star_counts_and_routes);
	tcase_add_test(tc, cable_delay_is_5ns_per_metre);
	tcase_add_test(tc, ecmp_sets_match_routes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_topology_suite());
}
