# kexp plot; run `gnuplot cost_vs_n_nystrom_gaussian_m_1000.gp` here to redraw cost_vs_n_nystrom_gaussian_m_1000.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_nystrom_gaussian_m_1000.svg'
set title 'time against n: nystrom(gaussian) m=1000 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0218 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '10000' 10000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
set arrow 1 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 1000' at 1000, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
1000 0.04358798 0.042898923 0.045186841
4000 0.18377921149999998 0.181246004 0.186345868
10000 0.563088686 0.563066228 0.563363574
40000 2.261709959 2.2615090620000005 2.2634180630000005
100000 7.804415816499999 7.804139972999999 7.8053506829999995
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)'
