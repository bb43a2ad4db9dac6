# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_3.gp` here to redraw cost_vs_n_polynomial_d_15_degree_3.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_15_degree_3.svg'
set title 'time against n: polynomial d=15 degree=3 on cubic'
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
set arrow 1 from 1512.0427507165155, graph 0 to 1512.0427507165155, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 1512 (970.7 … 1869)' at 1512.0427507165155, graph 0.830 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 50 '' at 1512.0427507165155, 0.06433160693811468 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 2 from 1374.770557018384, graph 0 to 1374.770557018384, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'crossover primal_ridge / kernel_ridge: n ≈ 1375 (740.9 … 1586)' at 1374.770557018384, graph 0.895 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 51 '' at 1374.770557018384, 0.031094745597745513 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 3 from 816, graph 0 to 816, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 3 'n = D = 816' at 816, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
80 6.925799999999999e-05 6.4161e-05 0.000119055
160 0.000243268 0.000204248 0.000418976
400 0.0010422880000000002 0.000942437 0.005781232
800 0.01638523675 0.015432465000000001 0.028193567000000003
1600 0.0726406725 0.066209874 0.083524413
3200 0.275939893 0.218375065 0.33843093900000004
6400 2.3457889955 2.28896043 2.403989976
EOD
$line1 << EOD
80 3.6840000000000006e-05 3.5294000000000005e-05 0.00011068800000000001
160 0.000130227 0.000126406 0.00030599
400 0.000916246 0.0008682800000000001 0.00171365
800 0.005476238 0.005031572 0.019642413
1600 0.05058552725 0.044370419 0.061995856
3200 0.24718601350000002 0.204695921 0.298556076
6400 2.2591287125 2.148097805 2.367167573
EOD
$line2 << EOD
80 0.0011729524999999998 0.0010459129999999999 0.005528816
160 0.0015997989999999998 0.001357208 0.006320521
400 0.012154088 0.011697824999999999 0.02475809
800 0.03404495525 0.030639261999999997 0.039007968000000004
1600 0.0680724235 0.067372648 0.07386958400000002
3200 0.11604458650000002 0.101378632 0.149426442
6400 0.2535232035 0.23619732200000002 0.283522613
EOD
$line3 << EOD
80 0.0089201985 0.00531955 0.013409477000000001
160 0.010270419499999999 0.007899441 0.018346594
400 0.013828078 0.009152372 0.025102789
800 0.0209803145 0.015941804 0.029493298
1600 0.03471911975 0.029084786 0.043357477
3200 0.05503028075000001 0.036317195999999996 0.086224379
6400 0.108789828 0.095211934 0.131306501
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
