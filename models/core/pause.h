/*
 * pause.h - the receiving side of PFC (IEEE 802.1Qbb, docs/model.md#pfc): what
 * received pause frames hold back on one transmitter (a switch egress port
 * or a NIC), and the pause sampler behind pause.csv.  Pure of any fabric:
 * a transmitter is told to resume through its `kick` callback, and what is
 * observed goes to the callbacks of its pause_env.
 *
 * A PFC frame that arrives waits the port's response time (a constant-delay
 * FIFO, so one pending event however many frames arrive), then:
 *   quanta > 0  pause the priority until now + quanta x 512 bit times at the
 *               port's rate (a refresh just moves the end)
 *   quanta = 0  XON: resume now.
 * A pause that ends without XON is an `expire`.  One event per transmitter
 * watches the earliest end among its paused priorities.  Paused priorities
 * start no new frame; the frame in flight finishes.
 *
 * Watchdog interplay (docs/model.md#pfc-watchdog): while the watchdog holds a storm on a
 * priority with action drop or forward (`ignore`), frames for it are counted
 * (the restoration timer needs their arrival times) but not obeyed.
 *
 * Sampling (pause.csv): every transmitter touched by PFC joins its env's
 * dirty list and stays there while paused; at the end of each sample
 * interval (multiples of interval_ps) the sampler reports, per dirty
 * transmitter and priority, the fraction of the interval it was paused and
 * the XOFF frames it received, and drops the transmitters no longer paused.
 * The sampler's event runs only while some transmitter is dirty.  Its rows
 * come in the order of the transmitters' expiry event keys (evkey.h: ports
 * by global index, then NICs by host), whatever the order they were touched.
 */
#ifndef DCQCN_PAUSE_H
#define DCQCN_PAUSE_H

#include <stdint.h>

#include "models/base/engine.h"
#include "models/core/link.h"
#include "models/core/pkt.h"

enum pfc_event { PFC_XOFF, PFC_REFRESH, PFC_XON, PFC_EXPIRE };

struct pause_rx;

/* what the transmitters of one engine share */
struct pause_env {
	struct sim_engine *eng;
	struct pkt_pool *pool;         /* received PFC frames go back here */
	sim_time_ps interval_ps;       /* sample interval */
	struct sim_event sample_ev;
	sim_time_ps sample_start;      /* start of the interval being sampled */
	struct pause_rx *dirty;        /* transmitters to sample */
	struct pause_rx **order;       /* scratch: them in order */
	uint32_t order_cap;
	uint32_t max_paused_ppm;       /* largest paused fraction of any interval */
	sim_time_ps paused_ps;         /* paused (or stalled) time of pauses that ended */
	void *ctx;
	/* a PFC frame took effect or a pause expired (NULL: not observed) */
	void (*on_event)(void *ctx, const struct pause_rx *pr, unsigned prio,
			 enum pfc_event ev, uint32_t quanta);
	/* one sample interval ending at t of a transmitter's priority that was
	 * paused or received XOFF frames: paused fraction in parts per million */
	void (*on_sample)(void *ctx, sim_time_ps t, const struct pause_rx *pr, unsigned prio,
			  uint32_t paused_ppm, uint32_t frames);
};

struct pause_rx {
	/* first what a transmitter reads for every frame (paused, storm) */
	uint8_t paused;                /* bit p: priority p is paused */
	uint8_t ignore;                /* bit p: PFC watchdog storm, PFC ignored */
	uint8_t storm;                 /* bit p: watchdog storm declared */
	uint8_t dirty;
	uint8_t is_host;               /* owner: NIC of host `node`, else switch port */
	uint16_t port;
	uint32_t node;
	struct pause_env *env;
	struct pause_rx *next_dirty;   /* in env->dirty */
	int64_t rate_bps;
	struct sim_event expire_ev;    /* at the earliest until[] of a paused priority */
	struct link delay;             /* received PFC frames, response_time */
	sim_time_ps until[PKT_PRIOS];  /* pause ends (without XON) */
	sim_time_ps since[PKT_PRIOS];  /* paused continuously since */
	sim_time_ps last_frame[PKT_PRIOS]; /* last PFC frame received; -1 none */
	sim_time_ps acc[PKT_PRIOS];    /* paused time in this sample interval */
	uint32_t frames[PKT_PRIOS];    /* XOFF frames received in this interval */
	uint64_t wd_dropped[PKT_PRIOS];/* packets the watchdog dropped, this storm */
	void (*kick)(struct pause_rx *pr); /* resume sending */
};

/* env's engine, pool, interval and callbacks must be set first; key: the
 * sampler event's */
void pause_env_init(struct pause_env *env, uint64_t key);
/* a transmitter of host `node` (is_host) or switch `node` port `port`;
 * keys: of its expiry event and of its response-time delay line */
void pause_init(struct pause_env *env, struct pause_rx *pr, int is_host, uint32_t node,
		uint16_t port, int64_t rate_bps, sim_time_ps response_ps,
		void (*kick)(struct pause_rx *), uint64_t key_expire, uint64_t key_delay);
/* a PFC frame arrived: apply it after the response time; frees p */
void pause_receive(struct pause_rx *pr, struct pkt *p);
/* eligible priorities: bit p set when p is not paused */
static inline uint8_t pause_open(const struct pause_rx *pr)
{
	return (uint8_t)~pr->paused;
}
/*
 * InfiniBand credit stalls: a transmitter whose priority (VL) has a frame
 * ready but not the credits for it holds that priority "paused" from now
 * until pause_unstall(), so pause_open() keeps it from starting and the
 * sampler reports the stalled fraction in pause.csv (no PFC events).
 */
void pause_stall(struct pause_rx *pr, unsigned prio);
void pause_unstall(struct pause_rx *pr, unsigned prio);
/* paused or stalled time of all transmitters and priorities up to t (the
 * engine's time or later; pauses still on count up to t) */
sim_time_ps pause_total_ps(const struct pause_env *env, sim_time_ps t);
/* end a pause now (watchdog, failed link), as if an XON had arrived */
void pause_clear(struct pause_rx *pr, unsigned prio);
/* close the last sample interval at time t >= the engine's (end of run) */
void pause_flush(struct pause_env *env, sim_time_ps t);
void pause_env_free(struct pause_env *env);

#endif
