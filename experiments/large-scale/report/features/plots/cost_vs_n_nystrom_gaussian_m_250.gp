# kexp plot; run `gnuplot cost_vs_n_nystrom_gaussian_m_250.gp` here to redraw cost_vs_n_nystrom_gaussian_m_250.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_nystrom_gaussian_m_250.svg'
set title 'time against n: nystrom(gaussian) m=250 on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'primal_ridge: λ = 0.1.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'The primal map''s dimension D = 250 is below every n drawn.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '16000' 16000, '40000' 40000, '100000' 100000, '1000000' 1000000)
set logscale x
set logscale y
$line0 << EOD
1000 0.003743221 0.0036118870000000003 0.004804263
4000 0.014519027 0.014286337 0.017801546
16000 0.0622312335 0.058292874 0.070312733
40000 0.164655529 0.16286425 0.17138611099999998
100000 0.44255968 0.442527831 0.4434964
1000000 4.675410144 4.675272366 4.675547922
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
