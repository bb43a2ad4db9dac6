# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_2.gp` here to redraw cost_vs_n_polynomial_d_15_degree_2.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_15_degree_2.svg'
set title 'time against n: polynomial d=15 degree=2 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 9
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1397 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1096 left font ',12'
set label 102 'Crossover primal_gd / dual_gd: not resolved: times below 1 ms at n = 160 or 400.' at screen 0.01, screen 0.0795 left font ',12'
set label 103 'Crossover primal_ridge / kernel_ridge: not resolved: times below 1 ms at n = 160 or 400.' at screen 0.01, screen 0.0493 left font ',12'
set label 104 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0192 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 136, graph 0 to 136, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 136' at 136, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
80 6.8215e-05 6.3507e-05 0.00014364
160 0.00024334600000000002 0.000228555 0.004568773
400 0.001014418 0.000900849 0.005865956
800 0.01535594925 0.014981668999999998 0.028817516
1600 0.069034539 0.064553604 0.080846996
3200 0.25047243524999996 0.23529715999999998 0.276263621
6400 1.8602306865 1.4414206079999998 2.285368047
EOD
$line1 << EOD
80 3.8954999999999995e-05 3.4739e-05 0.000120454
160 0.000133608 0.000124294 0.004541934
400 0.000929986 0.000867633 0.001951125
800 0.0059089864999999995 0.004970906 0.019128042
1600 0.051842949000000006 0.045447833 0.061532296
3200 0.26331334925 0.234195682 0.304629683
6400 1.94288802925 1.78771573 2.093947458
EOD
$line2 << EOD
80 0.0001373515 0.000132563 0.00036939599999999997
160 0.00025581 0.00021938000000000003 0.000517085
400 0.0005720665 0.000496319 0.000987434
800 0.001106823 0.000904195 0.005676068
1600 0.0026975425 0.0023361600000000003 0.0077609459999999995
3200 0.02534431375 0.020382367000000002 0.034498336
6400 0.03789957325 0.029513297 0.050984639
EOD
$line3 << EOD
80 0.000102941 9.2344e-05 0.000523011
160 0.0001374305 0.000125655 0.0005555240000000001
400 0.00024923299999999996 0.000234245 0.0008895609999999999
800 0.0004905695 0.000421992 0.006238074
1600 0.000955336 0.000819224 0.005873191
3200 0.001990722 0.001736112 0.0116847
6400 0.0041382780000000004 0.0035862470000000003 0.012923971999999999
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
