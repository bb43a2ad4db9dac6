# kexp plot; run `gnuplot cost_vs_n_nystrom_gaussian_m_100.gp` here to redraw cost_vs_n_nystrom_gaussian_m_100.svg
set terminal svg size 1000,664 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_nystrom_gaussian_m_100.svg'
set title 'time against n: nystrom(gaussian) m=100 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'The primal map''s dimension D = 100 is below every n drawn.' at screen 0.01, screen 0.0211 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '10000' 10000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
$line0 << EOD
1000 0.001456394 0.001416041 0.002496043
4000 0.0057144809999999996 0.005549653 0.007497274
10000 0.019299335 0.01891578 0.022410344000000002
40000 0.15507719350000002 0.151654371 0.161920374
100000 0.5556472459999999 0.555311943 0.560731691
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)'
