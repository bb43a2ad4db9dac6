# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_4.gp` here to redraw cost_vs_n_polynomial_d_10_degree_4.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_10_degree_4.svg'
set title 'time against n: polynomial d=10 degree=4 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 1859.6454795264324, graph 0 to 1859.6454795264324, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 1860 (1650 … 3089)' at 1859.6454795264324, graph 0.830 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 50 '' at 1859.6454795264324, 0.10092560376705362 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 2 from 1598.883279148146, graph 0 to 1598.883279148146, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'crossover primal_ridge / kernel_ridge: n ≈ 1599 (1333 … 1969)' at 1598.883279148146, graph 0.895 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 51 '' at 1598.883279148146, 0.05196663693170471 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 3 from 1001, graph 0 to 1001, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 3 'n = D = 1000' at 1001, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
80 9.2311e-05 8.0467e-05 0.000147077
160 0.000267655 0.000203926 0.0005158
400 0.001121623 0.0010494 0.006093748
800 0.016361561500000003 0.016100960999999997 0.028813099999999998
1600 0.0740721245 0.06794224000000001 0.08072096299999999
3200 0.308240528 0.218156012 0.394790217
6400 2.3869577704999996 2.266869307 2.506405659
EOD
$line1 << EOD
80 3.807950000000001e-05 3.6592000000000005e-05 0.00010790000000000001
160 0.00014152499999999998 0.000133996 0.00038988900000000003
400 0.0009691105 0.0009151089999999999 0.003339626
800 0.0055077635 0.005168077 0.018099097
1600 0.052084374 0.043699868999999995 0.059675531
3200 0.2978594645 0.228064043 0.36784565599999997
6400 2.322324517 2.25930814 2.385050814
EOD
$line2 << EOD
80 0.00160008 0.001290105 0.002664119
160 0.0029498945000000004 0.0025594000000000003 0.009952755
400 0.028045690249999998 0.017750036 0.042848683000000005
800 0.0429111705 0.040067143 0.049430536
1600 0.0850884945 0.084061563 0.090735215
3200 0.18687700424999998 0.16584091499999998 0.214781635
6400 0.33844149375 0.323182986 0.361401919
EOD
$line3 << EOD
80 0.01377746475 0.009086009 0.017902049
160 0.018504738 0.014322955 0.026887759
400 0.023074382 0.019893138 0.038243306
800 0.03494761974999999 0.032277377999999995 0.043079578
1600 0.05198743 0.048496991 0.059820254
3200 0.08969908925 0.08124180599999999 0.109450834
6400 0.18240291525000002 0.173242049 0.20302778900000001
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
