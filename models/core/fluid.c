/*
 * fluid.c - the DCQCN fluid model (contract and equations in fluid.h).
 *
 * State per class of flows (flows that start together): alpha, Rt, Rc.
 * The history ring holds q and every class's Rc at each step; a delayed
 * value at t - tau* is interpolated between two steps.  A step is Heun's:
 * the derivative at t (history at t - tau*), an Euler predictor, the
 * derivative at t + h on the predictor (history at t + h - tau*, which is
 * at or before t since h <= tau*), and the average.  After a step q >= 0,
 * Rc in [min, line], Rt <= line.
 */
#include "models/core/fluid.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

struct fluid {
	struct fluid_params p;
	uint32_t nclass;
	double *cstart;     /* class start time */
	uint32_t *cmult;    /* flows in the class */
	uint32_t *flow_class;
	double *alpha, *rt, *rc; /* per class */
	uint8_t *on;        /* class started */
	double q;
	uint64_t k;         /* steps taken */
	uint32_t hlen;      /* history entries */
	double *hist;       /* hlen x (1 + nclass): q, rc... at step k mod hlen */
	double *tmp;        /* scratch: d1, d2 (3 m each), delayed (1 + m), predictor (3 m) */
};

double fluid_mark_prob(const struct fluid_params *p, double q)
{
	if (q <= p->kmin_pkts)
		return 0.0;
	if (q <= p->kmax_pkts)
		return p->pmax * (q - p->kmin_pkts) / (p->kmax_pkts - p->kmin_pkts);
	return 1.0;
}

/* -log(1 - p), p in [0, 1]: +inf at 1 */
static double neglog1m(double p)
{
	return p >= 1.0 ? INFINITY : -log1p(-p);
}

/* 1 - (1 - p)^k for k >= 0, L = -log(1 - p) */
static double frac_marked(double L, double k)
{
	if (k <= 0.0 || L <= 0.0)
		return 0.0;
	if (isinf(L))
		return 1.0;
	return -expm1(-k * L);
}

/* p / ((1 - p)^-k - 1), k > 0: 1/k at p = 0, 0 at p = 1 */
static double inc_term(double p, double L, double k)
{
	if (L <= 0.0)
		return 1.0 / k;
	if (isinf(L))
		return 0.0;
	double d = expm1(k * L);
	return isinf(d) ? 0.0 : p / d;
}

/* (1 - (1-p)^(tau r)) / tau, with its tau -> 0 limit r L */
static double cut_rate(double L, double r, double tau)
{
	if (r <= 0.0 || L <= 0.0)
		return 0.0;
	if (tau <= 0.0)
		return r * L; /* L infinite: infinite, the cut is then immediate */
	return frac_marked(L, tau * r) / tau;
}

/* (1 - p)^(F k): no CNP through F increase events of k packets each */
static double no_cnp(double L, double fk)
{
	if (fk <= 0.0 || L <= 0.0)
		return 1.0;
	return isinf(L) ? 0.0 : exp(-fk * L);
}

/* increase events per second, byte counter and timer: all of them (*ev,
 * they move Rc halfway to Rt) and those past F fast-recovery steps
 * (*evf, they also raise Rt by R_AI) */
static void inc_events(const struct fluid_params *P, double p, double L, double rcd,
		       double *ev, double *evf)
{
	double e = 0.0, ef = 0.0, t = 0.0;
	if (P->byte_pkts > 0.0) {
		e = rcd * inc_term(p, L, P->byte_pkts);
		ef = e * no_cnp(L, P->fr_steps * P->byte_pkts);
	}
	if (rcd > 0.0)
		t = rcd * inc_term(p, L, P->timer_s * rcd);
	else if (L > 0.0 && !isinf(L))
		t = p / (P->timer_s * L);
	else if (L <= 0.0)
		t = 1.0 / P->timer_s;
	*ev = e + t;
	*evf = ef + t * no_cnp(L, P->fr_steps * P->timer_s * rcd);
}

/* d(alpha, Rt, Rc)/dt of one flow, delayed p (and its L) and Rc */
static void flow_deriv(const struct fluid_params *P, double alpha, double rt, double rc,
		       double pd, double L, double rcd, double out[3])
{
	double a = cut_rate(L, rcd, P->cnp_s);
	double ev, evf;
	inc_events(P, pd, L, rcd, &ev, &evf);
	if (isinf(a))
		a = 1.0 / P->step_s; /* tau 0 and p 1: as fast as the step allows */
	out[0] = P->g / P->alpha_s * (frac_marked(L, P->alpha_s * rcd) - alpha);
	out[1] = -(rt - rc) * a + P->ai_pps * evf;
	out[2] = -rc * alpha * P->cut * a + (rt - rc) / 2.0 * ev;
}

static int fail(char *err, unsigned len, const char *msg)
{
	if (err && len)
		snprintf(err, len, "%s", msg);
	return -1;
}

static int check_params(const struct fluid_params *p, char *err, unsigned len)
{
	if (p->flows == 0)
		return fail(err, len, "no flows");
	if (!(p->cap_pps > 0) || !(p->line_pps > 0) || p->min_pps < 0 || p->min_pps > p->line_pps)
		return fail(err, len, "rates: capacity and line rate > 0, 0 <= min <= line");
	if (!(p->kmin_pkts >= 0) || !(p->kmax_pkts > p->kmin_pkts) || !(p->pmax > 0) ||
	    p->pmax > 1)
		return fail(err, len, "ramp: 0 <= kmin < kmax, 0 < pmax <= 1");
	if (!(p->step_s > 0) || !(p->delay_s >= p->step_s))
		return fail(err, len, "step: 0 < step <= feedback delay");
	if (!(p->alpha_s > 0) || !(p->timer_s > 0) || p->cnp_s < 0 || p->byte_pkts < 0)
		return fail(err, len, "periods: alpha period and timer > 0, CNP interval >= 0");
	if (!(p->g > 0) || p->g > 1 || !(p->cut > 0) || p->cut > 1 || p->initial_alpha < 0 ||
	    p->initial_alpha > 1 || p->ai_pps < 0)
		return fail(err, len, "gains: 0 < g <= 1, 0 < cut <= 1, 0 <= alpha <= 1");
	if (!(p->fr_steps >= 0))
		return fail(err, len, "fast recovery: F >= 0 steps");
	if (p->delay_s / p->step_s > 1e8)
		return fail(err, len, "step: more than 1e8 steps of history");
	return 0;
}

struct fluid *fluid_new(const struct fluid_params *p, char *err, unsigned errlen)
{
	if (check_params(p, err, errlen))
		return NULL;
	struct fluid *f = calloc(1, sizeof(*f));
	if (!f) {
		fail(err, errlen, "out of memory");
		return NULL;
	}
	f->p = *p;
	f->p.start_s = NULL;
	uint32_t n = p->flows;
	f->cstart = calloc(n, sizeof(double));
	f->cmult = calloc(n, sizeof(uint32_t));
	f->flow_class = calloc(n, sizeof(uint32_t));
	/* classes: distinct start times, in order of first appearance */
	for (uint32_t i = 0; f->cstart && f->cmult && f->flow_class && i < n; i++) {
		double s = p->start_s ? p->start_s[i] : 0.0;
		uint32_t c = 0;
		while (c < f->nclass && f->cstart[c] != s)
			c++;
		if (c == f->nclass)
			f->cstart[f->nclass++] = s;
		f->cmult[c]++;
		f->flow_class[i] = c;
	}
	uint32_t m = f->nclass;
	f->hlen = (uint32_t)ceil(p->delay_s / p->step_s) + 3;
	f->alpha = calloc(m ? m : 1, sizeof(double));
	f->rt = calloc(m ? m : 1, sizeof(double));
	f->rc = calloc(m ? m : 1, sizeof(double));
	f->on = calloc(m ? m : 1, 1);
	f->tmp = calloc(10 * (size_t)m + 1, sizeof(double));
	f->hist = calloc((size_t)f->hlen * (1 + m), sizeof(double));
	if (!f->cstart || !f->cmult || !f->flow_class || !f->alpha || !f->rt || !f->rc || !f->on ||
	    !f->tmp || !f->hist) {
		fluid_free(f);
		fail(err, errlen, "out of memory");
		return NULL;
	}
	/* start the classes due at t = 0; history before 0: q = 0, Rc = 0 */
	for (uint32_t c = 0; c < m; c++)
		if (f->cstart[c] <= 0.0) {
			f->on[c] = 1;
			f->rc[c] = f->rt[c] = p->line_pps;
			f->alpha[c] = p->initial_alpha;
		}
	double *h = f->hist; /* entry of step 0 */
	h[0] = 0.0;
	for (uint32_t c = 0; c < m; c++)
		h[1 + c] = f->rc[c];
	return f;
}

void fluid_free(struct fluid *f)
{
	if (!f)
		return;
	free(f->cstart);
	free(f->cmult);
	free(f->flow_class);
	free(f->alpha);
	free(f->rt);
	free(f->rc);
	free(f->on);
	free(f->tmp);
	free(f->hist);
	free(f);
}

/* history at step position x (steps, may be fractional): q and each Rc
 * into out[0..m]; before step 0 everything is 0 */
static void hist_at(const struct fluid *f, double x, double *out)
{
	uint32_t m = f->nclass, w = 1 + m;
	if (x < 0.0) {
		memset(out, 0, sizeof(double) * w);
		return;
	}
	uint64_t i0 = (uint64_t)floor(x);
	double fr = x - (double)i0;
	if (i0 >= f->k) { /* x = k exactly (h = tau*): the current entry */
		i0 = f->k;
		fr = 0.0;
	}
	const double *a = f->hist + (size_t)(i0 % f->hlen) * w;
	if (fr == 0.0) {
		memcpy(out, a, sizeof(double) * w);
		return;
	}
	const double *b = f->hist + (size_t)((i0 + 1) % f->hlen) * w;
	for (uint32_t j = 0; j < w; j++)
		out[j] = a[j] + fr * (b[j] - a[j]);
}

/* derivatives at step position x (for the delayed terms) of state (q,
 * alpha, rt, rc): dq and d[3 m] */
static double deriv(const struct fluid *f, double x, double q, const double *al,
		    const double *rt, const double *rc, double *d, double *dl)
{
	const struct fluid_params *P = &f->p;
	uint32_t m = f->nclass;
	hist_at(f, x - P->delay_s / P->step_s, dl);
	double pd = fluid_mark_prob(P, dl[0]);
	double L = neglog1m(pd);
	double sum = 0.0;
	for (uint32_t c = 0; c < m; c++) {
		if (!f->on[c]) {
			d[3 * c] = d[3 * c + 1] = d[3 * c + 2] = 0.0;
			continue;
		}
		flow_deriv(P, al[c], rt[c], rc[c], pd, L, dl[1 + c], d + 3 * c);
		sum += (double)f->cmult[c] * rc[c];
	}
	double dq = sum - P->cap_pps;
	if (q <= 0.0 && dq < 0.0)
		dq = 0.0;
	return dq;
}

static void clamp(const struct fluid_params *P, double *al, double *rt, double *rc)
{
	if (*rc > P->line_pps)
		*rc = P->line_pps;
	if (*rc < P->min_pps)
		*rc = P->min_pps;
	if (*rt > P->line_pps)
		*rt = P->line_pps;
	if (*al < 0.0)
		*al = 0.0;
	if (*al > 1.0)
		*al = 1.0;
}

void fluid_step(struct fluid *f)
{
	const struct fluid_params *P = &f->p;
	uint32_t m = f->nclass;
	double h = P->step_s, x = (double)f->k;
	double *d1 = f->tmp, *d2 = f->tmp + 3 * (size_t)m, *dl = f->tmp + 6 * (size_t)m;
	double *pal = dl + 1 + m, *prt = pal + m, *prc = pal + 2 * (size_t)m;
	double dq1 = deriv(f, x, f->q, f->alpha, f->rt, f->rc, d1, dl);
	double pq = f->q + h * dq1;
	if (pq < 0.0)
		pq = 0.0;
	for (uint32_t c = 0; c < m; c++) {
		pal[c] = f->alpha[c] + h * d1[3 * c];
		prt[c] = f->rt[c] + h * d1[3 * c + 1];
		prc[c] = f->rc[c] + h * d1[3 * c + 2];
		if (f->on[c])
			clamp(P, &pal[c], &prt[c], &prc[c]);
	}
	double dq2 = deriv(f, x + 1.0, pq, pal, prt, prc, d2, dl);
	f->q += h / 2.0 * (dq1 + dq2);
	if (f->q < 0.0)
		f->q = 0.0;
	for (uint32_t c = 0; c < m; c++) {
		if (!f->on[c])
			continue;
		f->alpha[c] += h / 2.0 * (d1[3 * c] + d2[3 * c]);
		f->rt[c] += h / 2.0 * (d1[3 * c + 1] + d2[3 * c + 1]);
		f->rc[c] += h / 2.0 * (d1[3 * c + 2] + d2[3 * c + 2]);
		clamp(P, &f->alpha[c], &f->rt[c], &f->rc[c]);
	}
	f->k++;
	double t = (double)f->k * h;
	for (uint32_t c = 0; c < m; c++)
		if (!f->on[c] && t >= f->cstart[c]) {
			f->on[c] = 1;
			f->rc[c] = f->rt[c] = P->line_pps;
			f->alpha[c] = P->initial_alpha;
		}
	double *e = f->hist + (size_t)(f->k % f->hlen) * (1 + m);
	e[0] = f->q;
	for (uint32_t c = 0; c < m; c++)
		e[1 + c] = f->on[c] ? f->rc[c] : 0.0;
}

uint64_t fluid_steps(const struct fluid *f)
{
	return f->k;
}

double fluid_queue_pkts(const struct fluid *f)
{
	return f->q;
}

int fluid_flow(const struct fluid *f, uint32_t i, double *rc, double *rt, double *alpha)
{
	uint32_t c = f->flow_class[i];
	*rc = f->on[c] ? f->rc[c] : 0.0;
	*rt = f->on[c] ? f->rt[c] : 0.0;
	*alpha = f->on[c] ? f->alpha[c] : 0.0;
	return f->on[c];
}

void fluid_sums(const struct fluid *f, double *rc_pps, double *alpha)
{
	double r = 0.0, a = 0.0;
	for (uint32_t c = 0; c < f->nclass; c++)
		if (f->on[c]) {
			r += (double)f->cmult[c] * f->rc[c];
			a += (double)f->cmult[c] * f->alpha[c];
		}
	*rc_pps = r;
	*alpha = a;
}

uint32_t fluid_classes(const struct fluid *f)
{
	return f->nclass;
}

/* ---- fixed point ---- */

/* 2 c Rc alpha(p) A(p)^2 - R_AI I(p) I_F(p) at Rc = C/N */
static double fixed_eq(double p, void *arg)
{
	const struct fluid_params *P = arg;
	double rc = P->cap_pps / P->flows;
	double L = neglog1m(p);
	double a = cut_rate(L, rc, P->cnp_s);
	double al = frac_marked(L, P->alpha_s * rc);
	double ev, evf;
	inc_events(P, p, L, rc, &ev, &evf);
	return 2.0 * P->cut * rc * al * a * a - P->ai_pps * ev * evf;
}

int fluid_fixed_point(const struct fluid_params *P, struct fluid_fixed *fp)
{
	double lo = 1e-14, hi = 1.0 - 1e-9;
	if (P->flows == 0 || !(fixed_eq(lo, (void *)P) < 0) || !(fixed_eq(hi, (void *)P) > 0))
		return -1;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	gsl_function F = { fixed_eq, (void *)P };
	int st = s ? gsl_root_fsolver_set(s, &F, lo, hi) : GSL_ENOMEM;
	for (int it = 0; st == GSL_SUCCESS && it < 200; it++) {
		st = gsl_root_fsolver_iterate(s);
		lo = gsl_root_fsolver_x_lower(s);
		hi = gsl_root_fsolver_x_upper(s);
		if (st == GSL_SUCCESS && gsl_root_test_interval(lo, hi, 0, 1e-13) == GSL_SUCCESS)
			break;
	}
	double p = s ? gsl_root_fsolver_root(s) : 0.0;
	gsl_root_fsolver_free(s);
	gsl_set_error_handler(old);
	if (st != GSL_SUCCESS)
		return -1;
	double rc = P->cap_pps / P->flows, L = neglog1m(p);
	fp->p = p;
	fp->rc_pps = rc;
	fp->alpha = frac_marked(L, P->alpha_s * rc);
	double ev, evf;
	inc_events(P, p, L, rc, &ev, &evf);
	fp->rt_pps = rc + P->ai_pps * evf / cut_rate(L, rc, P->cnp_s);
	fp->q_pkts = p <= P->pmax ? P->kmin_pkts + p / P->pmax * (P->kmax_pkts - P->kmin_pkts)
				  : P->kmax_pkts;
	return 0;
}

void fluid_derivs_steady(const struct fluid_params *P, double q, double alpha, double rt,
			 double rc, double d[4])
{
	double pd = fluid_mark_prob(P, q), out[3];
	flow_deriv(P, alpha, rt, rc, pd, neglog1m(pd), rc, out);
	d[0] = P->flows * rc - P->cap_pps;
	if (q <= 0.0 && d[0] < 0.0)
		d[0] = 0.0;
	d[1] = out[0];
	d[2] = out[1];
	d[3] = out[2];
}

/* ---- stability ---- */

struct lin {
	const struct fluid_params *P;
	double A0[3][3], a1[3], b[3]; /* a1: column of the delayed Rc */
	double gain;                  /* K N */
};

static void lin_f(const struct fluid_params *P, const double x[5], double out[3])
{
	double pd = x[3] < 0 ? 0 : x[3];
	flow_deriv(P, x[0], x[1], x[2], pd, neglog1m(pd), x[4], out);
}

static void linearise(const struct fluid_params *P, const struct fluid_fixed *fp,
		      struct lin *l)
{
	double x0[5] = { fp->alpha, fp->rt_pps, fp->rc_pps, fp->p, fp->rc_pps };
	double col[5][3];
	for (int j = 0; j < 5; j++) {
		double x[5], fa[3], fb[3];
		double hstep = 1e-6 * fabs(x0[j]) + 1e-12;
		memcpy(x, x0, sizeof(x));
		x[j] = x0[j] + hstep;
		lin_f(P, x, fa);
		x[j] = x0[j] - hstep;
		lin_f(P, x, fb);
		for (int i = 0; i < 3; i++)
			col[j][i] = (fa[i] - fb[i]) / (2 * hstep);
	}
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++)
			l->A0[i][j] = col[j][i];
		l->b[i] = col[3][i];
		l->a1[i] = col[4][i];
	}
	l->P = P;
	l->gain = P->pmax / (P->kmax_pkts - P->kmin_pkts) * P->flows;
}

/* L(jw) without the e^(-jw tau*) of the loop (that phase is added apart) */
static double complex loop_rest(const struct lin *l, double w)
{
	double complex s = I * w, e = cexp(-s * l->P->delay_s);
	double complex M[3][4];
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++)
			M[i][j] = (i == j ? s : 0) - l->A0[i][j] - (j == 2 ? l->a1[i] * e : 0);
		M[i][3] = l->b[i];
	}
	/* Gaussian elimination with partial pivoting */
	for (int c = 0; c < 3; c++) {
		int piv = c;
		for (int r = c + 1; r < 3; r++)
			if (cabs(M[r][c]) > cabs(M[piv][c]))
				piv = r;
		for (int j = 0; j < 4; j++) {
			double complex t = M[c][j];
			M[c][j] = M[piv][j];
			M[piv][j] = t;
		}
		for (int r = c + 1; r < 3; r++) {
			double complex fct = M[r][c] / M[c][c];
			for (int j = c; j < 4; j++)
				M[r][j] -= fct * M[c][j];
		}
	}
	double complex x2 = M[2][3] / M[2][2];
	return -l->gain * x2 / s;
}

static double log_mag(double w, void *arg)
{
	return log(cabs(loop_rest(arg, w)));
}

int fluid_phase_margin(const struct fluid_params *P, const struct fluid_fixed *fp,
		       struct fluid_margin *m)
{
	struct lin l;
	linearise(P, fp, &l);
	const int n = 600;
	double wlo = 1.0, whi = 1e10, ph = 0.0, prev = 0.0;
	double w0 = wlo, lm0 = log_mag(wlo, &l);
	if (!(lm0 > 0)) { /* |L| < 1 already at the lowest frequency */
		m->pm_deg = 180.0;
		m->wc_rad_s = 0.0;
		return isfinite(lm0) ? 0 : -1;
	}
	ph = carg(loop_rest(&l, wlo));
	prev = ph;
	for (int i = 1; i <= n; i++) {
		double w = wlo * pow(whi / wlo, (double)i / n);
		double lm = log_mag(w, &l);
		double a = carg(loop_rest(&l, w));
		double dphi = a - prev;
		dphi -= 2 * M_PI * floor((dphi + M_PI) / (2 * M_PI));
		if (lm <= 0) {
			/* refine the crossover in [w0, w] */
			gsl_error_handler_t *old = gsl_set_error_handler_off();
			gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
			gsl_function F = { log_mag, &l };
			int st = s ? gsl_root_fsolver_set(s, &F, w0, w) : GSL_ENOMEM;
			for (int it = 0; st == GSL_SUCCESS && it < 200; it++) {
				st = gsl_root_fsolver_iterate(s);
				if (st == GSL_SUCCESS &&
				    gsl_root_test_interval(gsl_root_fsolver_x_lower(s),
							   gsl_root_fsolver_x_upper(s), 0,
							   1e-12) == GSL_SUCCESS)
					break;
			}
			double wc = s ? gsl_root_fsolver_root(s) : w;
			gsl_root_fsolver_free(s);
			gsl_set_error_handler(old);
			if (st != GSL_SUCCESS)
				return -1;
			double ac = carg(loop_rest(&l, wc));
			double dc = ac - prev;
			dc -= 2 * M_PI * floor((dc + M_PI) / (2 * M_PI));
			double phase = ph + dc - wc * P->delay_s;
			m->wc_rad_s = wc;
			m->pm_deg = 180.0 + phase * 180.0 / M_PI;
			return 0;
		}
		ph += dphi;
		prev = a;
		w0 = w;
	}
	return -1;
}
