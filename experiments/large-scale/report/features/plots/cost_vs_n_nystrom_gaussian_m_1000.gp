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
set label 100 'primal_ridge: lambda=0.1' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0211 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
set arrow 1 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 1000' at 1000, graph 0.96 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
1000 0.070757056 0.061440890000000005 0.08020965099999999
4000 0.256775694 0.256509561 0.257130976
16000 0.85797691 0.8579503190000001 0.8582441860000001
40000 2.4218514399999997 2.421783471 2.4224796289999997
100000 6.782546600999999 6.782443003999999 6.782943019999999
1000000 66.911371879 66.911371879 66.911371879
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
