# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_4.gp` here to redraw cost_vs_n_polynomial_d_15_degree_4.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_15_degree_4.svg'
set title 'time against n: polynomial d=15 degree=4 on cubic'
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
set arrow 1 from 4749.24335796069, graph 0 to 4749.24335796069, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 4749 (3461 … 5873)' at 4749.24335796069, 0.7942582514682759 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 2 from 3876, graph 0 to 3876, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'n = D = 3880' at 3876, graph 0.90 right offset -0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
80 7.6141e-05 6.7916e-05 0.000136569
160 0.000244402 0.00023509499999999997 0.00033865200000000005
400 0.0014730869999999999 0.0013742600000000002 0.006192536
800 0.005612112999999999 0.004980984 0.01132681
1600 0.04564699324999999 0.032453649 0.090268501
3200 0.311724889 0.22056843399999998 0.41373251200000005
6400 1.6101047194999998 1.532294885 1.6882126359999998
EOD
$line1 << EOD
80 3.61095e-05 3.5214000000000005e-05 0.000354451
160 0.0001287445 0.00012676 0.000591191
400 0.0010732605 0.0010141360000000001 0.006619293
800 0.006084958 0.00579826 0.012502694
1600 0.049913359000000004 0.038361126 0.094997336
3200 0.368913949 0.279352527 0.471005917
6400 2.4370564285 2.335617757 2.54345831
EOD
$line2 << EOD
80 0.00798995675 0.005723748999999999 0.012663928999999999
160 0.012683692 0.011574736 0.017679167
400 0.033299491 0.024873598 0.049079012
800 0.0912339715 0.06945958199999999 0.15508971600000002
1600 0.19018714600000003 0.176288723 0.246762622
3200 0.45510202350000006 0.43910571600000003 0.49454332700000003
6400 1.2097370200000002 1.0588476390000001 1.3666956490000002
EOD
$line3 << EOD
80 0.896319145 0.795836036 0.9972318279999999
160 0.8454957375000001 0.827670362 0.8637310060000001
400 0.9909381045000001 0.9532758880000001 1.0418044450000001
800 1.1400876525 1.075588622 1.249060603
1600 1.4243916630000002 1.417485297 1.4751931670000002
3200 2.042333545 2.0384633689999996 2.072263124
6400 3.2529367165 3.031794885 3.481434501
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
