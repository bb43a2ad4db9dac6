# kexp plot; run `gnuplot cost_vs_n_nystrom_gaussian_m_100.gp` here to redraw cost_vs_n_nystrom_gaussian_m_100.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_nystrom_gaussian_m_100.svg'
set title 'time against n: nystrom(gaussian) m=100 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'linear_svc: bias=regularized, c=1, epochs=1000, loss=hinge, tolerance=0.001' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'The primal map''s dimension D = 100 is below every n drawn.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '10000' 10000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
$line0 << EOD
1000 0.001759876 0.001629108 0.019391306999999997
4000 0.020055198 0.011619865 0.030218583
10000 0.043650592499999995 0.030272352 0.068945659
40000 0.1459170245 0.13790733 0.16735280400000002
100000 1.1909539055 1.184340248 1.198202086
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)'
