# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_3.gp` here to redraw cost_vs_n_polynomial_d_10_degree_3.svg
set terminal svg size 1000,708 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_10_degree_3.svg'
set title 'time against n: polynomial d=10 degree=3 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1130 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.0819 left font ',12'
set label 102 'Crossover primal_ridge / kernel_ridge: not resolved: times below 1 ms at n = 400 or 800.' at screen 0.01, screen 0.0508 left font ',12'
set label 103 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0198 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 469.01639375586456, graph 0 to 469.01639375586456, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 469 (178.9 … 724.8)' at 469.01639375586456, graph 0.895 left offset 0.5,0 font ',12' textcolor rgb '#222222'
set label 50 '' at 469.01639375586456, 0.0020516510335019953 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 2 from 286, graph 0 to 286, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'n = D = 286' at 286, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
80 7.444299999999999e-05 6.7974e-05 0.00019061400000000003
160 0.00022003449999999998 0.00017914399999999998 0.000458197
400 0.001100533 0.001021868 0.009910857
800 0.01657845475 0.015700056 0.02594828
1600 0.0734322425 0.067118519 0.08704316899999999
3200 0.48419947300000005 0.32450857 0.636239709
6400 2.5739101034999994 2.484061159 2.666522878
EOD
$line1 << EOD
80 3.3792e-05 3.1277e-05 0.000154786
160 0.000127935 0.00012092 0.00029832000000000003
400 0.0009338160000000001 0.000847897 0.005154499
800 0.006282217 0.004892019 0.019934044
1600 0.051012515 0.043743362 0.065846276
3200 0.453240674 0.297030023 0.598679676
6400 2.205982642 2.190294222 2.221723984
EOD
$line2 << EOD
80 0.0003324845 0.000312033 0.0006381
160 0.0006595495 0.000604233 0.004984111
400 0.0015029660000000001 0.0013445019999999998 0.010051584000000002
800 0.0058277665 0.0036176760000000002 0.010738639999999999
1600 0.023265783999999998 0.01925862 0.027777260999999998
3200 0.060199582 0.047928954 0.10866130100000002
6400 0.10102874199999999 0.09967457699999999 0.110949563
EOD
$line3 << EOD
80 0.000413565 0.00038436099999999995 0.001417994
160 0.0005671865000000001 0.000524472 0.004935907000000001
400 0.001068359 0.000837824 0.009721991000000001
800 0.00181153 0.0014685960000000002 0.006489597
1600 0.0032070644999999997 0.00276502 0.011675182000000001
3200 0.01082514025 0.0054506039999999995 0.052092405
6400 0.01630502275 0.014741857 0.031819665999999996
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
