// Package glicko2 is the Glicko-2 rating system as Mark E. Glickman's
// "Example of the Glicko-2 system" (2012/2013) describes it, steps 1–8,
// at full precision, with the constants of CORRESPONDENCE.md §7.1: new
// players 1500, RD 350, volatility 0.06, τ = 0.5, convergence ε = 0.000001.
//
// It knows nothing of games, players or time: Update rates one rating
// period, Idle applies step 6 alone (a period without games). How
// periods are cut and in which order games are rated (Decision R1) is the
// caller's business; package tournament does it.
//
// No Go module was used: the ones that exist either rate a single result
// per call with a modified period model (so the paper's three-game
// period cannot be reproduced) or are unmaintained GOPATH-era code; the
// algorithm is short and the paper is its specification.
package glicko2

import "math"

// The constants of CORRESPONDENCE.md §7.1 and the paper's step 1–2.
const (
	// InitialRating is a new player's rating (Glicko scale).
	InitialRating = 1500.0
	// InitialRD is a new player's rating deviation, and the most it can
	// ever grow to through Idle (Decision R1).
	InitialRD = 350.0
	// InitialVolatility is a new player's volatility σ.
	InitialVolatility = 0.06
	// DefaultTau is the system constant τ, which limits how fast the
	// volatility changes.
	DefaultTau = 0.5
	// DefaultEpsilon is the convergence tolerance ε of the volatility
	// iteration (step 5.4).
	DefaultEpsilon = 0.000001
	// Scale converts between the Glicko scale and the Glicko-2 scale
	// (step 2: μ = (r − 1500)/173.7178).
	Scale = 173.7178
)

// maxIterations bounds the volatility iteration. The Illinois method
// converges in well under 20 steps for every input the paper's domain
// allows; the bound only keeps a NaN from looping forever.
const maxIterations = 200

// Rating is a player's rating on the Glicko scale: R (1500 for a new
// player), RD the rating deviation in the same points (350 new), and
// Volatility σ (0.06 new), the degree of expected fluctuation.
type Rating struct {
	R, RD, Volatility float64
}

// New returns the rating of a new player: 1500, 350, 0.06 (§7.1).
func New() Rating {
	return Rating{R: InitialRating, RD: InitialRD, Volatility: InitialVolatility}
}

// Result is one game of a rating period from the rated player's side:
// the opponent's rating before the period and the score, 1 for a win,
// 0.5 for a draw, 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// Options are the system constants; the zero value means τ = 0.5 and
// ε = 0.000001 (CORRESPONDENCE.md §7.1).
type Options struct {
	// Tau is τ; 0 means DefaultTau.
	Tau float64
	// Epsilon is ε; 0 means DefaultEpsilon.
	Epsilon float64
}

func (o Options) tau() float64 {
	if o.Tau > 0 {
		return o.Tau
	}
	return DefaultTau
}

func (o Options) epsilon() float64 {
	if o.Epsilon > 0 {
		return o.Epsilon
	}
	return DefaultEpsilon
}

// Update returns p's rating after one rating period in which p played the
// given games (steps 2–8 of the paper). Every opponent's rating is the one
// from before the period. With no results only step 6 applies: the RD
// grows, rating and volatility stay (the paper's rule; Idle also caps it
// at 350).
func Update(p Rating, results []Result) Rating { return Options{}.Update(p, results) }

// Update is the package-level Update with o's constants.
func (o Options) Update(p Rating, results []Result) Rating {
	// Step 2: to the Glicko-2 scale.
	mu := (p.R - InitialRating) / Scale
	phi := p.RD / Scale
	sigma := p.Volatility
	if len(results) == 0 {
		p.RD = math.Sqrt(phi*phi+sigma*sigma) * Scale
		return p
	}
	// Steps 3 and 4: the estimated variance v of the rating from game
	// outcomes alone, and the estimated improvement Δ (kept as the sum
	// Σ g(φj)(sj − E) that Δ and step 7 share).
	var invV, sum float64
	for _, r := range results {
		muJ := (r.Opponent.R - InitialRating) / Scale
		g := gOf(r.Opponent.RD / Scale)
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		invV += g * g * e * (1 - e)
		sum += g * (r.Score - e)
	}
	v := 1 / invV
	delta := v * sum
	// Step 5: the new volatility.
	sigma = o.volatility(phi, sigma, v, delta)
	// Step 6: the pre-period RD φ*.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	// Step 7: the new RD and rating.
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return Rating{R: muNew*Scale + InitialRating, RD: phiNew * Scale, Volatility: sigma}
}

// gOf is the paper's g(φ) = 1/√(1 + 3φ²/π²).
func gOf(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// volatility is step 5: the new σ' by the Illinois algorithm on
// f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − a)/τ².
func (o Options) volatility(phi, sigma, v, delta float64) float64 {
	tau, eps := o.tau(), o.epsilon()
	a := math.Log(sigma * sigma)
	phi2, delta2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	// Step 5.2: the initial bracket [A, B].
	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < maxIterations {
			k++
		}
		B = a - k*tau
	}
	// Steps 5.3–5.4: regula falsi with the Illinois step.
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > eps && i < maxIterations; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	// Step 5.5.
	return math.Exp(A / 2)
}

// Idle returns p after n rating periods without games: step 6 alone,
// φ ← √(φ² + σ²), n times, the RD never above InitialRD (350). Rating and
// volatility do not change (Decision R1, CORRESPONDENCE.md §7.2). n ≤ 0
// returns p unchanged.
func Idle(p Rating, n int) Rating {
	if n <= 0 {
		return p
	}
	// φ² grows by σ² per period: n periods add n·σ² at once, which is
	// the same as n single steps up to rounding, and keeps a player idle
	// for years as cheap as one idle month.
	phi := p.RD / Scale
	phi2 := phi*phi + float64(n)*p.Volatility*p.Volatility
	rd := math.Sqrt(phi2) * Scale
	if rd > InitialRD {
		rd = max(InitialRD, p.RD) // capped, and never lowered by idling
	}
	p.RD = rd
	return p
}
