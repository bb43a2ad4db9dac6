# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_2.gp` here to redraw cost_vs_n_polynomial_d_10_degree_2.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_10_degree_2.svg'
set title 'time against n: polynomial d=10 degree=2 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 9
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1397 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1096 left font ',12'
set label 102 'Crossover primal_gd / dual_gd: not resolved: times below 1 ms at n = 80 or 160.' at screen 0.01, screen 0.0795 left font ',12'
set label 103 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0493 left font ',12'
set label 104 'The primal map''s dimension D = 66 is below every n drawn.' at screen 0.01, screen 0.0192 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
$line0 << EOD
80 6.25065e-05 4.7057e-05 0.000141184
160 0.000170076 0.000159688 0.000294756
400 0.001032531 0.0009251880000000001 0.009138928
800 0.0153869995 0.013602451 0.027892074
1600 0.065910213 0.06477224100000001 0.079311778
3200 0.3011258855 0.27107394100000004 0.33444088
6400 2.1244409104999997 2.046431773 2.202651273
EOD
$line1 << EOD
80 3.9065999999999995e-05 3.2606e-05 0.000115444
160 0.00013053 0.000119991 0.000536409
400 0.0009586270000000001 0.000845485 0.009645382
800 0.0059491184999999995 0.004923759000000001 0.022527394
1600 0.04729853575 0.043129777 0.064302267
3200 0.2916459685 0.26547487200000003 0.322318181
6400 2.0060382304999997 2.000064222 2.010755995
EOD
$line2 << EOD
80 6.8536e-05 6.599e-05 0.00023265399999999997
160 0.00016047700000000002 0.000152346 0.00030687
400 0.0003661275 0.000352421 0.0007400220000000001
800 0.0008185965 0.000710467 0.005208386
1600 0.0014988495 0.0013720840000000002 0.0059495699999999995
3200 0.0053751755 0.003423603 0.008825422
6400 0.022020254000000003 0.019293641 0.032146001
EOD
$line3 << EOD
80 3.2814e-05 3.0991e-05 0.000243134
160 5.0374e-05 4.6912e-05 0.00035529199999999995
400 9.98665e-05 9.6927e-05 0.000463699
800 0.0001948575 0.000182726 0.0007687830000000001
1600 0.000354083 0.000331082 0.0011908609999999999
3200 0.0007708245 0.0007196780000000001 0.0058383870000000004
6400 0.0018206425 0.0016344620000000002 0.016639233
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
