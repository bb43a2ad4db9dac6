# kexp plot; run `gnuplot cost_vs_n_nystrom_gaussian_m_1000.gp` here to redraw cost_vs_n_nystrom_gaussian_m_1000.svg
set terminal svg size 1000,664 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_nystrom_gaussian_m_1000.svg'
set title 'time against n: nystrom(gaussian) m=1000 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'linear_svc: bias=regularized, c=1, epochs=1000, loss=hinge, tolerance=0.001' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0211 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '10000' 10000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
set arrow 1 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 1000' at 1000, graph 0.96 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
1000 0.057635224000000006 0.053219244 0.069734713
4000 0.3195236615 0.307540782 0.331663883
10000 0.891387437 0.8913364500000001 0.897126196
40000 3.7718509300000003 3.7712302400000004 3.7730260830000004
100000 8.8813483595 8.881164042 8.882644042999999
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)'
