package glicko2

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The paper's worked example ("Example of the Glicko-2 system", section
// "Example calculation"): a player rated 1500, RD 200, volatility 0.06
// plays three games in one rating period: beats 1400/30, loses to
// 1550/100, loses to 1700/300. The paper prints 1464.06 / 151.52 /
// 0.05999 from intermediate values rounded to four places; at full
// precision the result is 1464.05 / 151.52 / 0.05999(6) (CORRESPONDENCE.md
// §7.1: match within 0.01 and 0.0001).
func TestPaperExample(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Volatility: 0.06}
	results := []Result{
		{Opponent: Rating{R: 1400, RD: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300, Volatility: 0.06}, Score: 0},
	}
	got := Update(p, results)
	if math.Abs(got.R-1464.05) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 0.0001 {
		t.Errorf("Update(paper example) = %.4f / %.4f / %.6f, want 1464.05 / 151.52 / 0.05999", got.R, got.RD, got.Volatility)
	}
	// The printed figures differ from full precision by rounding only.
	if math.Abs(got.R-1464.06) > 0.02 {
		t.Errorf("rating %.4f is not within rounding of the paper's 1464.06", got.R)
	}
}

// TestPaperSteps checks the paper's intermediate values: step 3 v =
// 1.7785, step 4 Δ = −0.4834 (the paper rounds g and E to four places
// first; at full precision v = 1.77898, Δ = −0.48393, hence the tolerance
// of 0.001), step 5 σ' = 0.05999 (from the paper's rounded φ, v, Δ),
// step 7 φ' = 0.8722, μ' = −0.2069.
func TestPaperSteps(t *testing.T) {
	phi := 200 / Scale
	if math.Abs(phi-1.1513) > 0.00005 {
		t.Errorf("φ = %.5f, want 1.1513", phi)
	}
	mu := 0.0
	ops := []struct{ r, rd, s float64 }{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}}
	var invV, sum float64
	for _, o := range ops {
		g := gOf(o.rd / Scale)
		e := 1 / (1 + math.Exp(-g*(mu-(o.r-1500)/Scale)))
		invV += g * g * e * (1 - e)
		sum += g * (o.s - e)
	}
	v := 1 / invV
	delta := v * sum
	if math.Abs(v-1.7785) > 0.001 || math.Abs(delta-(-0.4834)) > 0.001 {
		t.Errorf("v, Δ = %.5f, %.5f; want 1.7785, −0.4834", v, delta)
	}
	sigma := Options{}.volatility(1.1513, 0.06, 1.7785, -0.4834)
	if math.Abs(sigma-0.05999) > 0.00001 {
		t.Errorf("σ' = %.6f, want 0.05999", sigma)
	}
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	if math.Abs(phiNew-0.8722) > 0.00005 || math.Abs(muNew-(-0.2069)) > 0.00005 {
		t.Errorf("φ', μ' = %.5f, %.5f; want 0.8722, −0.2069", phiNew, muNew)
	}
}

// TestVolatilityIsRoot: whatever branch step 5.2 takes, σ' solves
// f(ln σ'²) = 0 of step 5.1 (the function's slope is at least 1/τ² in
// magnitude near the root, so |f| small means x close to the root).
func TestVolatilityIsRoot(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	branches := [2]int{}
	for i := 0; i < 2000; i++ {
		phi := 0.1 + rng.Float64()*2
		sigma := 0.03 + rng.Float64()*0.1
		v := 0.5 + rng.Float64()*20
		delta := (rng.Float64() - 0.5) * 12
		if delta*delta > phi*phi+v {
			branches[0]++
		} else {
			branches[1]++
		}
		s := Options{}.volatility(phi, sigma, v, delta)
		x, a := math.Log(s*s), math.Log(sigma*sigma)
		ex := math.Exp(x)
		d := phi*phi + v + ex
		f := ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(DefaultTau*DefaultTau)
		if math.IsNaN(s) || math.Abs(f) > 1e-4 {
			t.Fatalf("volatility(φ=%g σ=%g v=%g Δ=%g) = %g, f = %g, want a root", phi, sigma, v, delta, s, f)
		}
	}
	if branches[0] == 0 || branches[1] == 0 {
		t.Errorf("both branches of step 5.2 should be exercised, got %v", branches)
	}
}

// TestNoGames: a period without games is step 6 alone.
func TestNoGames(t *testing.T) {
	p := Rating{R: 1700, RD: 60, Volatility: 0.06}
	got := Update(p, nil)
	want := math.Sqrt(math.Pow(60/Scale, 2)+0.06*0.06) * Scale
	if got.R != 1700 || got.Volatility != 0.06 || math.Abs(got.RD-want) > 1e-9 {
		t.Errorf("Update(%v, nil) = %v, want RD %.6f, the rest unchanged", p, got, want)
	}
}

// TestIdle: Idle(n) is n single steps of step 6, capped at 350. With
// σ = 0.06, φ² grows by 0.0036 a period, so RD 80 reaches the cap after
// about (2.0148² − 0.4605²)/0.0036 ≈ 1,069 periods.
func TestIdle(t *testing.T) {
	p := Rating{R: 1620, RD: 80, Volatility: 0.06}
	step := p
	for n := 0; n <= 1200; n++ {
		got := Idle(p, n)
		if math.Abs(got.RD-step.RD) > 1e-9 || got.R != p.R || got.Volatility != p.Volatility {
			t.Fatalf("Idle(%v, %d) = %v, want RD %.9f as %d single steps", p, n, got, step.RD, n)
		}
		if got.RD > InitialRD {
			t.Fatalf("Idle(%v, %d) RD = %v, above 350", p, n, got.RD)
		}
		step = Update(step, nil)
		step.RD = min(step.RD, InitialRD)
	}
	if got := Idle(p, 1100).RD; got != InitialRD {
		t.Errorf("Idle(%v, 1100).RD = %v, want the cap 350", p, got)
	}
	if got := Idle(p, 1068).RD; got >= InitialRD {
		t.Errorf("Idle(%v, 1068).RD = %v, want still below the cap", p, got)
	}
	if got := Idle(p, -3); got != p {
		t.Errorf("Idle(p, -3) = %v, want p unchanged", got)
	}
}

// TestDirections: a win raises the rating, a loss lowers it, a draw
// between equals leaves it; every game lowers the RD.
func TestDirections(t *testing.T) {
	a := Rating{R: 1500, RD: 120, Volatility: 0.06}
	b := Rating{R: 1500, RD: 120, Volatility: 0.06}
	win := Update(a, []Result{{b, 1}})
	loss := Update(a, []Result{{b, 0}})
	draw := Update(a, []Result{{b, 0.5}})
	if !(win.R > a.R && loss.R < a.R && math.Abs(draw.R-a.R) < 1e-9) {
		t.Errorf("win %v, loss %v, draw %v from %v: want up, down, same", win.R, loss.R, draw.R, a.R)
	}
	if math.Abs((win.R-a.R)+(loss.R-a.R)) > 1e-9 {
		t.Errorf("between equals, win and loss should move the rating equally: %+.6f, %+.6f", win.R-a.R, loss.R-a.R)
	}
	for _, r := range []Rating{win, loss, draw} {
		if r.RD >= a.RD {
			t.Errorf("RD after a game = %v, want below %v", r.RD, a.RD)
		}
	}
}
