# kexp plot; run `gnuplot cost_vs_n_nystrom_gaussian_m_1000.gp` here to redraw cost_vs_n_nystrom_gaussian_m_1000.svg
set terminal svg size 1000,664 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_nystrom_gaussian_m_1000.svg'
set title 'time against n: nystrom(gaussian) m=1000 on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'primal_ridge: λ = 0.1.' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0211 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '16000' 16000, '40000' 40000, '100000' 100000, '1000000' 1000000)
set logscale x
set logscale y
set arrow 1 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 1000' at 1000, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
1000 0.058341422000000004 0.04912721 0.068528808
4000 0.23235936499999998 0.231854386 0.232930737
16000 0.790955045 0.790949428 0.791364714
40000 2.206251943 2.206121162 2.207855943
100000 5.331792484 5.331604716 5.332191396
1000000 63.968054244 63.968054244 63.968054244
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
