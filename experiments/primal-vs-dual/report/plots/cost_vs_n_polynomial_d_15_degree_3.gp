# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_3.gp` here to redraw cost_vs_n_polynomial_d_15_degree_3.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_15_degree_3.svg'
set title 'time against n: polynomial d=15 degree=3 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 9
set label 100 'dual_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1397 left font ',12'
set label 101 'kernel_ridge: lambda=0.001' at screen 0.01, screen 0.1096 left font ',12'
set label 102 'primal_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.0795 left font ',12'
set label 103 'primal_ridge: lambda=0.001' at screen 0.01, screen 0.0493 left font ',12'
set label 104 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0192 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 1095.3144269579168, graph 0 to 1095.3144269579168, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 1095 (915.3 … 1619)' at 1095.3144269579168, 0.011869768778822473 left point pt 7 ps 1.2 lc rgb '#444444' offset 1,1 font ',12' textcolor rgb '#222222'
set arrow 2 from 1587.489312255912, graph 0 to 1587.489312255912, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'crossover primal_ridge / kernel_ridge: n ≈ 1587 (1282 … 1980)' at 1587.489312255912, 0.03660478195384379 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 3 from 816, graph 0 to 816, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 3 'n = D = 816' at 816, graph 0.84 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
80 8.811299999999999e-05 7.2599e-05 0.000182544
160 0.000195216 0.000190812 0.00026401
400 0.001263185 0.001191122 0.001486591
800 0.005255672500000001 0.004844144 0.00604673
1600 0.0317105565 0.029783216 0.046785485
3200 0.22797842225 0.21581493000000002 0.244440969
6400 1.3996283895000001 1.184987665 1.614850573
EOD
$line1 << EOD
80 3.6003499999999995e-05 3.5146000000000005e-05 9.2173e-05
160 0.000113832 0.000111832 0.000157918
400 0.0009978029999999998 0.000921391 0.001709383
800 0.006041836 0.005595125 0.006761011999999999
1600 0.03736798375 0.036895052 0.05185576499999999
3200 0.28873399325000004 0.281140743 0.30207233199999994
6400 2.0802384475 2.005369427 2.15718092
EOD
$line2 << EOD
80 0.001089588 0.000818569 0.0014792890000000002
160 0.0015273255000000001 0.0014745090000000001 0.001741355
400 0.0044247005 0.004299764 0.004707776
800 0.0084578015 0.007853028 0.009197981000000001
1600 0.01786375975 0.015819131 0.030368764
3200 0.056291744000000005 0.05270363 0.069790867
6400 0.197825217 0.149172459 0.26496826599999995
EOD
$line3 << EOD
80 0.006610618 0.006188198 0.013983135
160 0.007548927 0.00734779 0.010770246
400 0.013190630000000002 0.011953415 0.016938134999999997
800 0.019796198 0.018610069 0.021113314
1600 0.03686342975 0.032244723999999995 0.060406051
3200 0.07937825600000001 0.07796744600000001 0.092744733
6400 0.1258125905 0.117709303 0.155116336
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
