# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_4.gp` here to redraw cost_vs_n_polynomial_d_10_degree_4.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_10_degree_4.svg'
set title 'time against n: polynomial d=10 degree=4 on cubic'
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
set arrow 1 from 1271.6614108105791, graph 0 to 1271.6614108105791, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 1272 (1100 … 1832)' at 1271.6614108105791, 0.018133927084747117 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 2 from 2047.680204317782, graph 0 to 2047.680204317782, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'crossover primal_ridge / kernel_ridge: n ≈ 2048 (1550 … 2304)' at 2047.680204317782, 0.0781953265132782 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 3 from 1001, graph 0 to 1001, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 3 'n = D = 1000' at 1001, graph 0.84 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
80 8.313649999999999e-05 6.1005e-05 0.000228753
160 0.00021727550000000002 0.00019180299999999997 0.000317482
400 0.0014645155 0.001308805 0.001900836
800 0.0055927814999999995 0.0054355129999999995 0.00599487
1600 0.03248323375 0.031712707 0.048293309
3200 0.236331532 0.223074528 0.274006222
6400 1.243004808 1.193684486 1.297733029
EOD
$line1 << EOD
80 3.41405e-05 3.3051e-05 0.00021471699999999998
160 0.000122798 0.000119686 0.000216311
400 0.001129302 0.0009494460000000001 0.001523201
800 0.006333506 0.006038094 0.006762173000000001
1600 0.037964337 0.037298995 0.053455694
3200 0.2891027895 0.271997452 0.334832369
6400 2.0866274755000003 2.057633576 2.117682333
EOD
$line2 << EOD
80 0.001630596 0.000959737 0.005276884
160 0.002397065 0.002208838 0.00270143
400 0.006048417 0.005748896 0.007232442
800 0.0120848685 0.011836432999999999 0.01259484
1600 0.0221735655 0.02171923 0.039686343
3200 0.081020478 0.07714989900000001 0.088491496
6400 0.1948327695 0.19446556 0.20822030200000002
EOD
$line3 << EOD
80 0.05005686375000001 0.012117797000000001 0.070047582
160 0.01287992025 0.012581641 0.015117141
400 0.023420383000000003 0.019394269999999998 0.031069248
800 0.0342311305 0.030706161000000003 0.043566123
1600 0.06235404 0.049718754 0.08927033100000001
3200 0.117786882 0.117082639 0.12398814400000001
6400 0.18859906049999997 0.183717836 0.208296288
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
